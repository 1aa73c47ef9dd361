import type { IncomingMessage } from 'node:http';
import { AppError } from '@plenum/core';
import { NUL_MESSAGE, nulCharacterIssues } from '@plenum/validators';
import busboy from 'busboy';
import { type FilePart, malformedMultipart } from './multipart';

export interface ReceiveFilesOptions {
  /** the form field that carries the files; file parts under other names are read and dropped */
  field: string;
  /** file parts in `field` at most: one more is a 400 TOO_MANY_FILES */
  maxFiles: number;
  /** busboy stops a file one byte past this, enough for `save` to know it is too large */
  maxFileSize: number;
  /**
   * consumes one file part while it arrives; parts are saved one after another, in body order (the
   * form's fields come with the answer, once every part was read)
   */
  save: (file: Omit<FilePart, 'fields'>) => Promise<void>;
  /** the refusal when the body holds no file in `field` */
  missing: () => AppError;
}

/**
 * Several files in one multipart body (POST /ipfs/upload with folders: docs/storage.md, "Folders and
 * several files"), with the file names as sent, folders included (`preservePath`). Resolves with the
 * plain fields once every file was saved; the first refusal rejects at once and the rest of the body is
 * read and dropped. Errors are handled as in receiveFile (http/multipart.ts): never an unhandled 'error'.
 */
export function receiveFiles(
  req: IncomingMessage,
  options: ReceiveFilesOptions,
): Promise<{ files: number; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      reject(err);
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        preservePath: true,
        limits: {
          files: options.maxFiles + 1,
          fileSize: options.maxFileSize + 1,
          fields: 20,
          fieldSize: 4096,
          parts: options.maxFiles + 21,
          headerPairs: 50,
        },
      });
    } catch (err) {
      req.resume();
      reject(malformedMultipart((err as Error).message));
      return;
    }
    const fields: Record<string, string> = {};
    let files = 0;
    let bodyBroken = false;
    let chain = Promise.resolve();
    bb.on('file', (name, stream, info) => {
      stream.on('error', () => {});
      if (name !== options.field || failed) {
        stream.resume();
        return;
      }
      files++;
      if (files > options.maxFiles) {
        stream.resume();
        fail(
          new AppError('BAD_REQUEST', `At most ${options.maxFiles} files per upload`, {
            reason: 'TOO_MANY_FILES',
          }),
        );
        return;
      }
      const nul = nulCharacterIssues({ filename: info.filename });
      if (nul.length) {
        stream.resume();
        fail(
          new AppError('BAD_REQUEST', `Invalid input: filename: ${NUL_MESSAGE}`, {
            reason: 'VALIDATION_FAILED',
            issues: nul,
          }),
        );
        return;
      }
      chain = chain.then(async () => {
        if (failed) {
          stream.resume();
          return;
        }
        try {
          await options.save({ stream, filename: info.filename, mimeType: info.mimeType });
        } catch (err) {
          stream.resume();
          // a stream cut by a broken body fails inside `save` with busboy's raw error: name the real cause
          fail(!(err instanceof AppError) && (bodyBroken || stream.errored) ? malformedMultipart() : err);
        }
      });
    });
    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('error', (err) => {
      bodyBroken = true;
      // a file being saved fails too and settles through `save`; otherwise refuse here
      void chain.then(() => fail(malformedMultipart((err as Error).message)));
    });
    bb.on('close', () => {
      void chain.then(() => {
        if (failed) return;
        if (files === 0) fail(options.missing());
        else {
          failed = true;
          resolve({ files, fields });
        }
      });
    });
    req.on('error', (err) => bb.destroy(err));
    req.on('close', () => {
      if (!req.complete) bb.destroy(new Error('the client went away'));
    });
    req.pipe(bb);
  });
}
