import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import formidable, { errors as formidableErrors } from 'formidable';
import { ApiError } from '@garrison/core';

const TEMP_PREFIX = '.upload-';

export interface ReceivedFile<T = void> {
  /** What `acceptName` made of the name. */
  accepted: T;
  /** The client's file name, reduced to its base name. */
  filename: string;
  /** Where the bytes are: a temporary file in the target folder, to be renamed into place. */
  tempPath: string;
  size: number;
}

/**
 * Streams the multipart part `file` of `req` into a temporary file in `folder`: never into memory, cut
 * off with 413 `FILE_TOO_LARGE` as soon as `limit` bytes are passed, and removed on any failure (an
 * aborted upload included), so that nothing half-written is left behind. `acceptName` sees the file's
 * base name as soon as the part's headers arrive and throws to refuse it, before a byte is written.
 */
export async function receiveFile<T>(req: IncomingMessage, folder: string, limit: number, acceptName: (filename: string) => T): Promise<ReceivedFile<T>> {
  await mkdir(folder, { recursive: true });
  const temps: string[] = [];
  let accepted: { value: T } | null = null;
  const refuseEarly = (part: { name: string | null; originalFilename: string | null }): boolean => {
    if (part.name !== 'file') return false;
    try {
      accepted = { value: acceptName(baseName(part.originalFilename)) };
      return true;
    } catch (err) {
      // Answered now, not after the whole body: formidable settles parse() on its first error.
      form.emit('error', err);
      return false;
    }
  };
  const form = formidable({
    uploadDir: folder,
    maxFiles: 1,
    maxFileSize: limit,
    maxTotalFileSize: limit,
    maxFields: 20,
    maxFieldsSize: 64 * 1024,
    allowEmptyFiles: true,
    minFileSize: 0,
    filename: () => `${TEMP_PREFIX}${randomUUID()}.part`,
    filter: refuseEarly,
    // Large writes: the default 16 KB chunks made writing, not receiving, the limit.
    fileWriteStreamHandler: (file) => {
      const path = (file as unknown as { filepath: string }).filepath;
      temps.push(path);
      return createWriteStream(path, { highWaterMark: 1024 * 1024, mode: 0o644 });
    },
  });
  const removeTemps = () => Promise.all(temps.map((t) => unlink(t).catch(() => {})));
  try {
    const [, files] = await form.parse(req);
    const file = files.file?.[0];
    if (!file) throw new ApiError('VALIDATION_ERROR', "the multipart part 'file' is required");
    // The filter accepted this part, so its name was checked, and accepted, as it began.
    const { value } = accepted as unknown as { value: T };
    temps.splice(temps.indexOf(file.filepath), 1);
    return { filename: baseName(file.originalFilename), tempPath: file.filepath, size: file.size, accepted: value };
  } catch (err) {
    await removeTemps();
    throw asApiError(err, limit);
  }
}

/** The client's file name reduced to its base name (Windows paths too); 400 `NO_FILENAME` when nothing is left. */
function baseName(original: string | null): string {
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
    await unlink(received.tempPath).catch(() => {});
    throw err;
  }
  return target;
}

function asApiError(err: unknown, limit: number): unknown {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: number }).code;
  if (code === formidableErrors.biggerThanMaxFileSize || code === formidableErrors.biggerThanTotalMaxFileSize) {
    return new ApiError('FILE_TOO_LARGE', `the upload is larger than ${limit} bytes`, { headers: { Connection: 'close' } });
  }
  if (code === formidableErrors.maxFilesExceeded) return new ApiError('VALIDATION_ERROR', 'upload one file at a time');
  return new ApiError('VALIDATION_ERROR', `not a multipart/form-data upload: ${(err as Error).message}`);
}
