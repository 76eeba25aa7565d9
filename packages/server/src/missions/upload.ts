import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { basename, join } from 'node:path';
import busboy from 'busboy';
import { ApiError, ifMissing } from '@garrison/core';

const TEMP_PREFIX = '.upload-';
/** Written in large pieces: with small ones, writing and not receiving was the limit. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

export interface ReceivedFile<T = void> {
  /** What `acceptName` made of the name. */
  accepted: T;
  /** The client's file name, reduced to its base name. */
  filename: string;
  /** Where the bytes are: a temporary file in the target folder, to be renamed into place. */
  tempPath: string;
  size: number;
}

const cutOff = () => new ApiError('VALIDATION_ERROR', 'the upload was cut off');

/**
 * Streams the multipart part `file` of `req` into a temporary file in `folder`: never into memory, cut
 * off with 413 `FILE_TOO_LARGE` as soon as `limit` bytes are passed, and removed on any failure (an
 * aborted upload included), so that nothing half-written is left behind. `acceptName` sees the file's
 * base name as soon as the part's headers arrive and throws to refuse it, before a byte is written.
 *
 * busboy parses, and the part is piped to the file with ordinary back-pressure, so that receiving goes
 * on while the disk writes, within the streams' buffers. (formidable, used before, paused the request
 * until each chunk was written: receiving and writing took turns, and an upload reached 0.4 to 0.65 of
 * a bare transport in bench/mission-upload.)
 */
export async function receiveFile<T>(
  req: IncomingMessage,
  folder: string,
  limit: number,
  acceptName: (filename: string) => T,
): Promise<ReceivedFile<T>> {
  await mkdir(folder, { recursive: true });
  return new Promise<ReceivedFile<T>>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // busboy reports a file that reaches its limit; the contract refuses one that passes it.
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: limit + 1, files: 10, fields: 20, fieldSize: 64 * 1024, parts: 40 },
        highWaterMark: WRITE_BUFFER_BYTES,
        fileHwm: WRITE_BUFFER_BYTES,
      });
    } catch (err) {
      return reject(new ApiError('VALIDATION_ERROR', `not a multipart/form-data upload: ${(err as Error).message}`));
    }
    let settled = false;
    let writing: { path: string; part: NodeJS.ReadableStream & { destroy(err?: Error): void }; done: Promise<ReceivedFile<T>> } | null =
      null;

    // The parser is left as it is (destroying it in the middle of a part throws inside the HTTP
    // parser): the request is unpiped, and the rest of its body is the HTTP layer's to drop.
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      const error = err instanceof Error ? err : new Error(String(err));
      if (!writing) return reject(error);
      // The answer waits until the partial file is gone: nothing half-written outlives the request.
      const { path, part, done } = writing;
      // With an error: a part destroyed without one after busboy ended it counts as finished, and its
      // pipeline would wait for an end that never comes.
      setImmediate(() => part.destroy(error));
      // Its own failure is this one's doing (the part destroyed with `err`): waited for, not told again.
      void Promise.allSettled([done])
        .then(() => unlink(path).catch(ifMissing(undefined)))
        .then(
          () => reject(error),
          (unlinkErr: unknown) =>
            reject(new AggregateError([error, unlinkErr], `${error.message}; and the partial file ${path} could not be removed`)),
        );
    };

    // busboy calls any part with a file name, or of type application/octet-stream, a file.
    parser.on('file', (name, stream, info) => {
      stream.on('error', () => {}); // a part cut short: what it means is decided below, once
      if (settled || name !== 'file') return void stream.resume(); // other parts are read and dropped
      if (writing) {
        stream.resume();
        return fail(new ApiError('VALIDATION_ERROR', 'upload one file at a time'));
      }
      let filename: string;
      let accepted: T;
      try {
        filename = baseName(info.filename);
        accepted = acceptName(filename);
      } catch (err) {
        stream.resume();
        return fail(err);
      }
      stream.once('limit', () =>
        fail(new ApiError('FILE_TOO_LARGE', `the upload is larger than ${limit} bytes`, { headers: { Connection: 'close' } })),
      );
      const path = join(folder, `${TEMP_PREFIX}${randomUUID()}.part`);
      // Piped at once: a pipeline from a part already cut off (by the size limit) would never settle.
      const file = createWriteStream(path, { highWaterMark: WRITE_BUFFER_BYTES, mode: 0o644 });
      const done = (async () => {
        try {
          await pipeline(stream, file);
        } catch (err) {
          // Settled only once the file is closed, so that removing it cannot come before its creation.
          if (!file.closed) await once(file, 'close');
          throw err;
        }
        return { accepted, filename, tempPath: path, size: (await stat(path)).size };
      })();
      writing = { path, part: stream, done };
      done.catch(fail);
    });
    parser.once('filesLimit', () => fail(new ApiError('VALIDATION_ERROR', 'too many file parts')));
    parser.once('fieldsLimit', () => fail(new ApiError('VALIDATION_ERROR', 'too many form fields')));
    parser.once('partsLimit', () => fail(new ApiError('VALIDATION_ERROR', 'too many form parts')));
    parser.on('error', (err: Error) => fail(new ApiError('VALIDATION_ERROR', `not a multipart/form-data upload: ${err.message}`)));
    parser.once('close', () => {
      if (settled) return;
      if (!writing) return fail(new ApiError('VALIDATION_ERROR', "the multipart part 'file' is required"));
      writing.done.then((received) => {
        if (settled) return;
        settled = true;
        resolve(received);
      }, fail);
    });
    // A client that goes away in the middle: nothing more will come.
    req.once('close', () => {
      if (!req.complete) fail(cutOff());
    });
    req.pipe(parser);
  });
}

/** The client's file name reduced to its base name (Windows paths too); 400 `NO_FILENAME` when nothing is left. */
function baseName(original: string | null | undefined): string {
  const filename = basename((original ?? '').replace(/\\/g, '/'));
  if (!filename || filename === '.' || filename === '..' || filename.includes('\0')) {
    throw new ApiError('NO_FILENAME', 'the uploaded file has no file name');
  }
  return filename;
}

/** Puts a received file in place under its name; the temporary file is gone either way. */
export async function keepFile(received: ReceivedFile<unknown>, folder: string): Promise<string> {
  const target = join(folder, received.filename);
  try {
    await rename(received.tempPath, target);
  } catch (err) {
    await unlink(received.tempPath).catch(ifMissing(undefined));
    throw err;
  }
  return target;
}
