import { useModal } from './modal.js';

/** A modal question before an action that loses something; Escape or Cancel leaves everything as it was. */
export function Confirm(props: { title: string; message: string; confirmLabel: string; onConfirm: () => void; onCancel: () => void }) {
  const dialog = useModal();
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onCancel={props.onCancel} onClose={props.onCancel}>
      <h2 id="confirm-title">{props.title}</h2>
      <p>{props.message}</p>
      <div class="dialog-actions">
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
