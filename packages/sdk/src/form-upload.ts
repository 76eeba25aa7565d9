import type { UploadProgress } from './upload.js';

/** The part of a browser's XMLHttpRequest used here; the SDK is built without the DOM's types, as Node has none of it. */
interface Xhr {
  status: number;
  responseText: string;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  abort(): void;
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getAllResponseHeaders(): string;
  send(body: FormData): void;
}
const XhrClass = () => (globalThis as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;

/** Whether this platform uploads forms through XMLHttpRequest: browsers, whose fetch reports no upload progress. */
export const browserUploads = (): boolean => XhrClass() !== undefined;

/**
 * Sends a form with upload progress, and gives the answer back as a `Response`. Browsers stream a File
 * from disk this way; a fetch with a streamed body needs HTTP/2, and a fetch with a form reports no progress.
 */
export function sendForm(
  url: string,
  method: string,
  headers: Record<string, string>,
  form: FormData,
  onProgress?: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const Request = XhrClass();
    if (!Request) return reject(new TypeError('XMLHttpRequest is not available here'));
    const xhr = new Request();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.onprogress = (e) => onProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : null });
    xhr.onload = () => resolve(new Response(xhr.status === 204 ? null : xhr.responseText, { status: xhr.status, headers: headersOf(xhr) }));
    xhr.onerror = () => reject(new TypeError(`Network error: the upload to ${url} failed`));
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

function headersOf(xhr: Xhr): Headers {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}
