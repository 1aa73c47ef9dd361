import { fileTypeFromBuffer } from 'file-type';

export interface DetectedType {
  mime: string;
  ext: string;
}

/** how many leading bytes type detection looks at (file-type needs at most ~4 KiB for its formats) */
export const SNIFF_BYTES = 8192;

const OCTET: DetectedType = { mime: 'application/octet-stream', ext: 'bin' };
const TEXT: DetectedType = { mime: 'text/plain', ext: 'txt' };
const HTML: DetectedType = { mime: 'text/html', ext: 'html' };
const SVG: DetectedType = { mime: 'image/svg+xml', ext: 'svg' };
const XML: DetectedType = { mime: 'application/xml', ext: 'xml' };

/** an svg element, namespace-prefixed or not (`<svg `, `<svg/onload=…>`, `<x:svg …>`) */
const SVG_START = /^<([a-z_][\w.-]*:)?svg[\s>/]/i;
const SVG_TAG = /<([a-z_][\w.-]*:)?svg[\s>/]/i;

// WHATWG MIME sniffing: tags that make a browser treat a resource as HTML
const HTML_START =
  /^<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\s>/]/i;

/**
 * Type from the bytes, never from the client: magic numbers first (file-type); bytes without one are
 * text/plain only when they are UTF-8 without binary control bytes and do not sniff as HTML, SVG or XML.
 */
export async function detectType(head: Uint8Array): Promise<DetectedType> {
  const sample = head.subarray(0, SNIFF_BYTES);
  const found = await fileTypeFromBuffer(sample).catch(() => undefined);
  if (found) {
    if (found.mime === 'application/xml') return SVG_TAG.test(decodeLoose(sample)) ? SVG : XML;
    return { mime: found.mime, ext: found.ext };
  }
  if (hasBinaryBytes(sample) || !isUtf8Prefix(sample)) return OCTET;
  const text = decodeLoose(sample)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^<\?xml[\s?]/i.test(text)) return SVG_TAG.test(text) ? SVG : XML;
  if (/^<!doctype\s+svg\b/i.test(text) || SVG_START.test(text)) return SVG;
  if (HTML_START.test(text) || /^<!doctype\s+html/i.test(text)) return HTML;
  // any other document that opens with an element or a doctype is markup, not plain text
  if (/^<(!doctype\s|[a-z_][\w.:-]*[\s>/])/i.test(text)) return XML;
  return TEXT;
}

/** content a browser could execute: served as an attachment only */
export function isActiveContent(mime: string): boolean {
  return /html|svg|xml|javascript|ecmascript/i.test(mime);
}

function decodeLoose(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 2048));
}

// WHATWG "binary data byte": control characters that never occur in text
function hasBinaryBytes(bytes: Uint8Array): boolean {
  for (const b of bytes) {
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return true;
  }
  return false;
}

/** valid UTF-8, allowing a multi-byte character cut off at the end of the sample */
function isUtf8Prefix(bytes: Uint8Array): boolean {
  const d = new TextDecoder('utf-8', { fatal: true });
  try {
    d.decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Checks a stream chunk by chunk for UTF-8 validity without holding it. */
export class Utf8Validator {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  ok = true;
  push(chunk: Uint8Array) {
    if (!this.ok) return;
    try {
      this.decoder.decode(chunk, { stream: true });
      if (hasBinaryBytes(chunk)) this.ok = false;
    } catch {
      this.ok = false;
    }
  }
  end(): boolean {
    if (!this.ok) return false;
    try {
      this.decoder.decode();
      return true;
    } catch {
      return false;
    }
  }
}
