/**
 * Reads the uploaded spreadsheet of an import request: `multipart/form-data` with the file in field `file`
 * (decisions.md "Spreadsheet import"), streamed through busboy into memory up to `maxBytes` (10 MB): memory shared
 * with the parse thread, each chunk copied in as it arrives (shared-bytes.ts), one chunk of the body per turn of the
 * event loop (shared/turns.ts `feedInTurns`).
 *
 * Returns `{buffer, fileName}`. Throws AppError 400 NOT_MULTIPART (another content type), 400 FILE_REQUIRED
 * (no `file` part), 400 MALFORMED_UPLOAD (broken multipart), 413 FILE_TOO_LARGE, 422 INVALID_CHARACTERS. After a refusal the rest
 * of the request is left to Node, which discards an unread body once the answer is sent. Every stream read
 * here (the request, each part) has its `error` listened to: a body cut short is an answer, never an exception.
 */
import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, unprocessable } from '../errors.ts';
import { feedInTurns } from '../shared/turns.ts';
import { isValidText } from '../text.ts';
import { MAX_UPLOAD_BYTES } from './limits.ts';
import { SharedBytes } from './shared-bytes.ts';

export interface Upload {
  buffer: Buffer;
  fileName: string;
}

const malformed = () => new AppError(400, 'MALFORMED_UPLOAD', '上传内容不完整或格式不正确，请重新上传');

const tooLarge = (maxBytes: number) =>
  new AppError(413, 'FILE_TOO_LARGE', `文件超过 ${Math.round(maxBytes / 1024 / 1024)} MB，请删除多余的工作表或分成几个文件导入`, { maxBytes });

/**
 * Reads the `file` part of a multipart request into memory, up to `maxBytes` (default 10 MB) → `{buffer, fileName}`.
 * Throws AppError 400 NOT_MULTIPART, FILE_REQUIRED, MALFORMED_UPLOAD (broken multipart, no boundary), and
 * 413 FILE_TOO_LARGE (also when Content-Length announces more than `maxBytes` + 64 KiB), 422 INVALID_CHARACTERS (a
 * file name with NUL or a lone surrogate).
 */
export function readUpload(req: Request, maxBytes = MAX_UPLOAD_BYTES): Promise<Upload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    return Promise.reject(
      new AppError(400, 'NOT_MULTIPART', '请以 multipart/form-data 方式上传文件，文件放在字段 file 中'),
    );
  }
  const declared = Number(req.headers['content-length']);
  // The multipart envelope adds a few hundred bytes; anything announced well beyond the limit is refused unread.
  if (Number.isFinite(declared) && declared > maxBytes + 64 * 1024) return Promise.reject(tooLarge(maxBytes));
  // The file is at most the body: room for that at once (1 MB when the body's length is not announced).
  const expected = Number.isFinite(declared) && declared > 0 ? Math.min(declared, maxBytes) : 1024 * 1024;

  return new Promise<Upload>((resolve, reject) => {
    let settled = false;
    let bb: busboy.Busboy;
    let stopFeeding = () => {};
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      stopFeeding();
      reject(err);
    };
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 64 * 1024, parts: 40 } });
    } catch {
      reject(new AppError(400, 'MALFORMED_UPLOAD', '上传内容格式不正确（multipart 边界缺失），请重新上传'));
      return;
    }
    let file: Upload | undefined;
    let reading: Promise<void> | undefined;
    bb.on('file', (field, stream, info) => {
      // Every part stream reports a body cut before its closing boundary as an 'error' of its own, besides
      // busboy's: unheard, Node would throw it and end the process.
      stream.on('error', () => fail(malformed()));
      if (field !== 'file' || reading) {
        stream.resume();
        return;
      }
      const bytes = new SharedBytes(expected);
      reading = new Promise<void>((done) => {
        stream.on('data', (c: Buffer) => bytes.push(c));
        stream.on('limit', () => fail(tooLarge(maxBytes)));
        stream.on('end', () => {
          file = { buffer: bytes.bytes(), fileName: info.filename ?? '' };
          done();
        });
        // The file name is stored with the preview: the rule of every text of a request (src/text.ts).
        if (!isValidText(info.filename ?? '')) fail(unprocessable('INVALID_CHARACTERS', '文件名含有无法识别的字符，请改名后重新上传'));
      });
    });
    bb.on('error', () => fail(malformed()));
    bb.on('close', () => {
      void (reading ?? Promise.resolve()).then(() => {
        if (settled) return;
        if (!file) return fail(new AppError(400, 'FILE_REQUIRED', '没有收到文件：请在字段 file 中上传 Excel 文件'));
        settled = true;
        resolve(file);
      });
    });
    const interrupted = () => fail(new AppError(400, 'MALFORMED_UPLOAD', '上传被中断，请重新上传'));
    req.on('aborted', interrupted);
    req.on('error', interrupted);
    // A chunk of the body per turn of the event loop: three 10 MB uploads arriving at once otherwise give busboy
    // megabytes to scan in one turn while other requests wait.
    stopFeeding = feedInTurns(req, bb);
  });
}
