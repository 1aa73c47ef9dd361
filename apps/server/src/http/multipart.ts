import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError } from '@plenum/core';
import { NUL_MESSAGE, nulCharacterIssues } from '@plenum/validators';
import busboy from 'busboy';

export interface FilePart {
  stream: Readable;
  filename: string | undefined;
  mimeType: string;
  /**
   * the form's text fields (the first value of each name), once the whole body was read: fields may come
   * before or after the file part, so ask only after the file stream ended
   */
  fields: () => Promise<Record<string, string>>;
}

export interface ReceiveOptions<T> {
  /** the form field that carries the file; file parts under other names are read and dropped */
  field: string;
  /** busboy stops the file one byte past this, enough for the caller to know it is too large */
  maxFileSize: number;
  /** consumes the file part while it arrives (never buffered whole) */
  save: (file: FilePart) => Promise<T>;
  /** the refusal when the body holds no file in `field` */
  missing: () => AppError;
}

export const malformedMultipart = (detail?: string) =>
  new AppError('BAD_REQUEST', `The multipart body is malformed${detail ? `: ${detail}` : ''}`, {
    reason: 'MALFORMED_MULTIPART',
  });

/**
 * The one multipart receiver (avatar and file uploads). Every stream it opens has an error listener:
 * a body that ends before its closing boundary, a part cut inside its headers, a file in a field of
 * another name or a client that goes away mid-body is a 400 MALFORMED_MULTIPART (or the caller's own
 * refusal), never an unhandled 'error' event that would stop the process (docs/api.md, "Errors").
 */
export function receiveFile<T>(req: IncomingMessage, options: ReceiveOptions<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: {
          files: 1,
          fileSize: options.maxFileSize + 1,
          fields: 20,
          fieldSize: 4096,
          parts: 30,
          headerPairs: 50,
        },
      });
    } catch (err) {
      // no boundary, or not multipart at all
      req.resume();
      reject(malformedMultipart((err as Error).message));
      return;
    }

    const fields: Record<string, string> = {};
    let fieldsRead: (value: Record<string, string>) => void = () => {};
    let fieldsBroken: (err: Error) => void = () => {};
    const allFields = new Promise<Record<string, string>>((res, rej) => {
      fieldsRead = res;
      fieldsBroken = rej;
    });
    allFields.catch(() => {}); // a caller that never asks must not see an unhandled rejection
    bb.on('field', (name, value) => {
      if (!Object.hasOwn(fields, name)) fields[name] = value;
    });

    let bodyBroken = false;
    let saving = false;
    bb.on('file', (name, stream, info) => {
      // whatever happens to the body, this stream's error is handled (it also reaches `save` through its reads)
      stream.on('error', () => {});
      if (name !== options.field || saving) {
        stream.resume();
        return;
      }
      saving = true;
      const nul = nulCharacterIssues({ filename: info.filename });
      if (nul.length) {
        stream.resume();
        settle(() =>
          reject(
            new AppError('BAD_REQUEST', `Invalid input: filename: ${NUL_MESSAGE}`, {
              reason: 'VALIDATION_FAILED',
              issues: nul,
            }),
          ),
        );
        return;
      }
      options
        .save({ stream, filename: info.filename, mimeType: info.mimeType, fields: () => allFields })
        .then(
          (value) => settle(() => resolve(value)),
          (err: unknown) =>
            settle(() =>
              // a stream cut by a broken body fails inside `save` with busboy's raw error: name the real cause
              reject(
                !(err instanceof AppError) && (bodyBroken || stream.errored) ? malformedMultipart() : err,
              ),
            ),
        );
    });
    bb.on('error', (err) => {
      bodyBroken = true;
      fieldsBroken(malformedMultipart((err as Error).message));
      // while saving, the file stream fails too and `save` settles; without it, refuse here
      if (!saving) settle(() => reject(malformedMultipart((err as Error).message)));
    });
    bb.on('close', () => {
      fieldsRead(fields);
      if (!saving) settle(() => reject(options.missing()));
    });
    req.on('error', (err) => bb.destroy(err));
    req.on('close', () => {
      if (!req.complete) bb.destroy(new Error('the client went away'));
    });
    req.pipe(bb);
  });
}
