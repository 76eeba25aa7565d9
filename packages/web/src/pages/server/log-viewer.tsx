import { useEffect, useRef, useState } from 'preact/hooks';
import { client } from '../../session.js';
import { Problem } from '../../components/problem.js';
import { bytes } from '../../format.js';

/** The largest file the viewer reads: a bigger one is downloaded (and a file still growing is cut here). */
export const VIEW_LIMIT_BYTES = 8 * 1024 * 1024;
/** Lines drawn at once; a search narrows what is drawn, never what is read. */
const SHOWN_LINES = 2000;

/**
 * A log file read in the page as it arrives (streamed, at most VIEW_LIMIT_BYTES, never held beyond
 * that), with a search over its lines; the lines shown are those that match.
 */
/** Lets go of a read no longer wanted: a stream that failed meanwhile says so again on cancel, which is not news. */
function cancelQuietly(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  reader.cancel().catch((err: unknown) => console.debug('the game log read failed as it was cancelled', err));
}

export function LogViewer({ serverId, filename, onClose }: { serverId: number; filename: string; onClose: () => void }) {
  const lines = useRef<string[]>([]);
  const [read, setRead] = useState({ bytes: 0, lines: 0, done: false, cut: false });
  const [error, setError] = useState<unknown>(null);
  const [search, setSearch] = useState('');

  useEffect(() => {
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
    let stopped = false;
    lines.current = [];
    void (async () => {
      const decoder = new TextDecoder();
      let partial = '';
      let total = 0;
      reader = (await client.logs.read(serverId, filename)).getReader();
      for (;;) {
        if (stopped) return cancelQuietly(reader);
        const { value, done } = await reader.read();
        if (stopped) continue;
        // What fits under the limit: past it, the rest is left unread (and the request cancelled).
        const chunk = value?.subarray(0, VIEW_LIMIT_BYTES - total);
        total += chunk?.byteLength ?? 0;
        const cut = !done && total >= VIEW_LIMIT_BYTES;
        const parts = (partial + decoder.decode(chunk, { stream: !(done || cut) })).split(/\r?\n/);
        partial = parts.pop()!; // a line not yet ended
        if ((done || cut) && partial !== '') parts.push(partial);
        lines.current.push(...parts);
        setRead({ bytes: total, lines: lines.current.length, done: done || cut, cut });
        if (cut) return cancelQuietly(reader);
        if (done) return;
      }
    })().catch((err: unknown) => stopped || setError(err));
    return () => {
      stopped = true;
      if (reader) cancelQuietly(reader);
    };
  }, [serverId, filename]);

  const needle = search.trim().toLowerCase();
  const matching: { n: number; text: string }[] = [];
  let matches = 0;
  lines.current.forEach((text, i) => {
    if (needle && !text.toLowerCase().includes(needle)) return;
    matches += 1;
    if (matching.length < SHOWN_LINES) matching.push({ n: i + 1, text });
  });

  return (
    <section class="log-viewer" aria-label={`Log file ${filename}`}>
      <div class="section-head">
        <h3 class="mono">{filename}</h3>
        <button type="button" class="quiet" onClick={onClose}>
          Close
        </button>
      </div>
      <div class="toolbar">
        <label class="grow">
          Search the file
          <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} placeholder="Text in the line" />
        </label>
      </div>
      <Problem error={error} />
      <p class="small" role="status" data-testid="log-viewer-state">
        {read.done ? 'Read' : 'Reading…'} {bytes(read.bytes)}, {read.lines} lines
        {needle && `; ${matches} match`}
        {matches > SHOWN_LINES && `; the first ${SHOWN_LINES} shown (narrow the search, or download the file)`}
        {read.cut && `; the file goes on past ${bytes(VIEW_LIMIT_BYTES)}: download it for the rest`}
      </p>
      <ol class="log log-file">
        {matching.map((line) => (
          <li key={line.n} class="log-line" data-line={line.n}>
            <span class="line-number">{line.n}</span>
            <span class="message">{line.text}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
