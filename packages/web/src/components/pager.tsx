/** Previous / next over a list the service gives page by page. */
export function Pager({
  offset,
  limit,
  total,
  onChange,
}: {
  offset: number;
  limit: number;
  total: number | null;
  onChange: (offset: number) => void;
}) {
  if (offset === 0 && (total === null || total <= limit)) return null;
  const last = total === null ? offset + limit : Math.min(total, offset + limit);
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="quiet" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        Newer
      </button>
      <span>
        {offset + 1}–{last}
        {total !== null && ` of ${total}`}
      </span>
      <button type="button" class="quiet" disabled={total !== null ? last >= total : false} onClick={() => onChange(offset + limit)}>
        Older
      </button>
    </nav>
  );
}
