// The mission-upload benchmark's formidable side: the built service's `receiveFile`
// (packages/server/dist/missions/upload.js) done with formidable 3, loaded in its place by
// bench/parser-swap.mjs, so that the same service, routes and limits are measured with the other parser.
// The file part goes straight to its temporary file through formidable's own hook
// (`fileWriteStreamHandler`): no copy in formidable's upload folder, nothing held in memory.
// GARRISON_BENCH_FORMIDABLE is the path of formidable's entry, resolved by bench/mission-upload.mjs.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, stat, unlink } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ApiError } from '@garrison/core';
// The real module, for what the service uses besides receiveFile (the swap leaves this import alone).
export { keepFile } from '../packages/server/dist/missions/upload.js';

const loaded = await import(pathToFileURL(process.env.GARRISON_BENCH_FORMIDABLE).href);
const formidable = loaded.formidable ?? loaded.default.formidable;
process.stderr.write(
  `bench: this service parses multipart with ` +
    `formidable${process.env.GARRISON_BENCH_FORMIDABLE_ACK === 'early' ? ', chunks acknowledged at once' : ''} ` +
    `(${process.env.GARRISON_BENCH_FORMIDABLE})\n`,
);
const WRITE_BUFFER_BYTES = 1024 * 1024; // as the busboy side
const EARLY_ACK = process.env.GARRISON_BENCH_FORMIDABLE_ACK === 'early';

/**
 * Same contract as the service's receiveFile: the part `file` to a temporary file in `folder`, 413 past `limit`, nothing left on failure.
 */
export async function receiveFile(req, folder, limit, acceptName) {
  await mkdir(folder, { recursive: true });
  return new Promise((resolve, reject) => {
    let settled = false;
    let writing = null; // { path, file (the write stream), accepted, filename }
    const fail = async (err) => {
      if (settled) return;
      settled = true;
      if (writing) {
        const { file, path } = writing;
        if (!file.closed) {
          file.destroy();
          await once(file, 'close').catch(() => {});
        }
        await unlink(path).catch(() => {});
      }
      reject(err);
    };
    const form = formidable({
      // formidable checks maxTotalFileSize on every chunk (maxFileSize only at a part's end): a file of
      // exactly `limit` passes, one byte more is refused before it is written.
      maxFileSize: limit,
      maxTotalFileSize: limit,
      maxFiles: 10,
      maxFields: 20,
      maxFieldsSize: 64 * 1024,
      allowEmptyFiles: true,
      minFileSize: 0,
      fileWriteStreamHandler: () => {
        writing.file = createWriteStream(writing.path, { highWaterMark: WRITE_BUFFER_BYTES, mode: 0o644 });
        return EARLY_ACK ? acknowledgingAtOnce(writing.file) : writing.file;
      },
    });
    // formidable's onPart hook: the part `file` goes to formidable's own file handling (and so to
    // fileWriteStreamHandler) once its name is accepted; any other part is read and dropped.
    form.onPart = (part) => {
      if (settled) return;
      if (part.name !== 'file' || !part.mimetype) return;
      if (writing) return void fail(new ApiError('VALIDATION_ERROR', 'upload one file at a time'));
      let filename;
      let accepted;
      try {
        filename = baseName(part.originalFilename);
        accepted = acceptName(filename);
      } catch (err) {
        return void fail(err);
      }
      writing = { path: join(folder, `.upload-${randomUUID()}.part`), file: null, accepted, filename };
      return form._handlePart(part);
    };
    form.on('error', (err) => {
      const tooLarge = err.httpCode === 413 && /FileSize/.test(err.message);
      void fail(
        tooLarge
          ? new ApiError('FILE_TOO_LARGE', `the upload is larger than ${limit} bytes`, { headers: { Connection: 'close' } })
          : new ApiError('VALIDATION_ERROR', `not a multipart/form-data upload: ${err.message}`),
      );
    });
    form.on('end', () => {
      if (settled) return;
      if (!writing) return void fail(new ApiError('VALIDATION_ERROR', "the multipart part 'file' is required"));
      const { accepted, filename, path } = writing;
      stat(path).then(({ size }) => {
        if (settled) return;
        settled = true;
        resolve({ accepted, filename, tempPath: path, size });
      }, fail);
    });
    req.once('close', () => {
      if (!req.complete) void fail(new ApiError('VALIDATION_ERROR', 'the upload was cut off'));
    });
    form.parse(req).catch(() => {}); // failures arrive through 'error' above
  });
}

/**
 * The file stream behind a writer that acknowledges a chunk as soon as the file stream has taken it
 * (within its 1 MiB buffer), as a pipe from busboy's part does, instead of once it is on disk: an
 * experiment only (GARRISON_BENCH_FORMIDABLE_ACK=early), to see what formidable's waiting costs.
 */
function acknowledgingAtOnce(file) {
  const writer = new Writable({
    write: (chunk, _encoding, callback) => (file.write(chunk) ? callback() : file.once('drain', () => callback())),
    final: (callback) => file.end(callback),
    destroy: (err, callback) => (file.destroy(err ?? undefined), callback(err)),
  });
  file.on('error', (err) => writer.destroy(err));
  return writer;
}

function baseName(original) {
  const filename = basename((original ?? '').replace(/\\/g, '/'));
  if (!filename || filename === '.' || filename === '..' || filename.includes('\0')) {
    throw new ApiError('NO_FILENAME', 'the uploaded file has no file name');
  }
  return filename;
}
