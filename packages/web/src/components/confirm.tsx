import { useState } from 'preact/hooks';
import { useModal } from './modal.js';

/** A modal question before an action that loses something; Escape or Cancel leaves everything as it was. */
function Confirm(props: { title: string; message: string; confirmLabel: string; onConfirm: () => void; onCancel: () => void }) {
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

/** A button that asks first (title, what is lost), then acts: delete, revoke… */
export function ConfirmButton(props: {
  label: string;
  ariaLabel?: string;
  class?: string;
  title: string;
  message: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button
        type="button"
        class={props.class ?? 'danger quiet'}
        onClick={() => setAsking(true)}
        aria-label={props.ariaLabel}
        disabled={props.disabled}
      >
        {props.label}
      </button>
      {asking && (
        <Confirm
          title={props.title}
          message={props.message}
          confirmLabel={props.label}
          onConfirm={() => {
            setAsking(false);
            props.onConfirm();
          }}
          onCancel={() => setAsking(false)}
        />
      )}
    </>
  );
}
