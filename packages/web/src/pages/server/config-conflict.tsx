import { MASK, type WidgetHint } from '@garrison/core';
import { useModal } from '../../components/modal.js';
import { optionOf } from './config-field.js';
import { TableHead } from '../../components/table-head.js';

type Fields = Record<string, unknown>;

/** A field's value as the editor shows it: an option's label, on/off, a list on one line, never a secret. */
function shown(hint: WidgetHint | undefined, value: unknown): string {
  if (value === undefined) return '–';
  if (hint?.widget === 'password') return value === MASK ? '(set, hidden)' : value ? '(your new secret)' : '(empty)';
  if (hint?.widget === 'toggle') return value ? 'on' : 'off';
  if (hint?.widget === 'select') return (hint.options ?? []).map(optionOf).find((o) => o.value === value)?.label ?? String(value);
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  return value === '' ? '(empty)' : String(value);
}

/**
 * The answer to a 409: someone saved the section after it was read. Shows what is saved now beside the
 * user's change, field by field, and lets them apply theirs on top of it or take the saved values.
 */
export function ConfigConflict(props: {
  section: string;
  hints: Record<string, WidgetHint>;
  mine: Fields;
  theirs: Fields;
  onUseTheirs: () => void;
  onReapply: () => void;
}) {
  const dialog = useModal();
  return (
    <dialog ref={dialog} aria-labelledby="conflict-title" class="wide" onCancel={props.onUseTheirs}>
      <h2 id="conflict-title">Changed by someone else</h2>
      <p>
        Someone saved the {props.section} section after you opened it, so your change was not saved. Here is what is saved now beside what
        you changed.
      </p>
      <table class="table">
        <TableHead columns={['Field', 'Saved now', 'Your change']} />
        <tbody>
          {Object.entries(props.mine).map(([field, value]) => (
            <tr key={field}>
              <th scope="row">{props.hints[field]?.label ?? field}</th>
              <td data-testid="theirs">{shown(props.hints[field], props.theirs[field])}</td>
              <td data-testid="mine">{shown(props.hints[field], value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="dialog-actions">
        <button type="button" class="quiet" onClick={props.onUseTheirs}>
          Discard mine, keep what is saved
        </button>
        <button type="button" onClick={props.onReapply}>
          Apply my change on top
        </button>
      </div>
    </dialog>
  );
}
