import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { Problem, useAction } from './problem.js';
import { useModal } from './modal.js';

let nextId = 0;

/**
 * A form in a modal dialog: the submit runs `onSubmit` with the form's values, shows the service's
 * refusal in the dialog, and closes it once the change is made.
 */
export function FormDialog(props: {
  title: string;
  submitLabel: string;
  danger?: boolean;
  wide?: boolean;
  children: ComponentChildren;
  onSubmit: (form: FormData, element: HTMLFormElement) => Promise<void>;
  onClose: () => void;
}) {
  const dialog = useModal();
  const [titleId] = useState(() => `form-dialog-${nextId++}`);
  const action = useAction();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    setBusy(true);
    const done = await action.run(() => props.onSubmit(new FormData(element), element));
    setBusy(false);
    if (done) dialog.current?.close();
  };
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onClose={props.onClose} class={props.wide ? 'wide' : undefined}>
      <form onSubmit={submit}>
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <Problem error={action.error} />
        <div class="dialog-actions">
          <button type="button" class="quiet" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" class={props.danger ? 'danger' : undefined} disabled={busy}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A text field of a form, trimmed; empty when absent. */
export const fieldText = (form: FormData, name: string): string => String(form.get(name) ?? '').trim();
