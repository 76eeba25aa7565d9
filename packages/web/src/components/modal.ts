import { useEffect, useRef } from 'preact/hooks';

/** A `<dialog>` shown as a modal as soon as it is on the page: focus stays inside it, Escape closes it. */
export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return dialog;
}
