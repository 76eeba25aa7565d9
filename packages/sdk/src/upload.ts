/** What an upload reads from: a Blob or File, a path (Node), or a stream of bytes. */
export type UploadSource = Blob | string | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadProgress {
  /** Bytes of the file sent so far. */
  sent: number;
  /** The file's size, when the source tells it (a Blob, a path). */
  total: number | null;
}

export interface UploadOptions {
  /** Called as the file's bytes go out, at most once per chunk read. */
  onProgress?: (progress: UploadProgress) => void;
}

/** A multipart/form-data body with one part `file`, built as a stream: the file is never held whole. */
export async function multipartBody(source: UploadSource, filename: string, options: UploadOptions = {}) {
  const boundary = `----garrison-sdk-${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const { chunks, total } = await bytesOf(source);
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename.replace(/["\r\n\\]/g, '_')}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  let sent = 0;
  const iterator = chunks[Symbol.asyncIterator]();
  let phase: 'head' | 'file' | 'done' = 'head';
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (phase === 'head') {
        phase = 'file';
        return controller.enqueue(head);
      }
      if (phase === 'done') return;
      const next = await iterator.next();
      if (next.done) {
        phase = 'done';
        controller.enqueue(tail);
        return controller.close();
      }
      sent += next.value.byteLength;
      options.onProgress?.({ sent, total });
      controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function bytesOf(source: UploadSource): Promise<{ chunks: AsyncIterable<Uint8Array>; total: number | null }> {
  if (typeof source === 'string') {
    // A path: Node only, loaded when used so that browsers never see node:fs.
    const { createReadStream, promises } = await import('node:fs');
    const { size } = await promises.stat(source);
    return { chunks: createReadStream(source, { highWaterMark: 1024 * 1024 }), total: size };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) return { chunks: streamChunks(source.stream()), total: source.size };
  if (source instanceof ReadableStream) return { chunks: streamChunks(source), total: null };
  return { chunks: source as AsyncIterable<Uint8Array>, total: null };
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
