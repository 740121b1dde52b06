// Looks inside an XLSX file (a zip archive) before any spreadsheet library does: the central directory is read by
// hand, every part is inflated with a ceiling on its output, and the parts that make a file hostile (macros,
// external links) are named. A zip bomb is refused after at most MAX_PART_BYTES of inflating, never by trusting
// the sizes the archive declares (docs/decisions/xlsx-format.md, docs/xlsx.md "Limits").
import { inflateRawSync } from 'node:zlib';

/** The limits a spreadsheet must keep; documented in docs/xlsx.md. */
export const XLSX_LIMITS = {
  /** Parts (files) in the archive. An exported table has about 15. */
  maxParts: 500,
  /** Uncompressed size of one part: the largest is a sheet's XML. */
  maxPartBytes: 32 * 1024 * 1024,
  /** Uncompressed size of all parts together. */
  maxTotalBytes: 64 * 1024 * 1024,
  /** Compression ratio above which a part larger than 1 MiB is taken for a bomb. */
  maxRatio: 200,
  /** Rows of the Table sheet (header rows included) and of each other sheet. */
  maxRows: 10_000,
  /** Columns of any sheet. */
  maxColumns: 400,
} as const;

export type XlsxLimits = typeof XLSX_LIMITS;

/** The file is not one we read; the message says why and what to do. Thrown before any parsing. */
export class RefusedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedFileError';
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** True when the bytes start like a zip archive (what an XLSX file is): `PK\3\4`. */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

interface Part {
  name: string;
  method: number;
  compressed: number;
  uncompressed: number;
  localOffset: number;
}

function endOfCentralDirectory(buf: Buffer): number {
  const earliest = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= earliest; i--) if (buf.readUInt32LE(i) === EOCD) return i;
  throw new RefusedFileError('The file is not a readable XLSX workbook: its zip directory is missing (is the file complete?)');
}

function partsOf(buf: Buffer, limits: XlsxLimits): Part[] {
  const eocd = endOfCentralDirectory(buf);
  const count = buf.readUInt16LE(eocd + 10);
  const size = buf.readUInt32LE(eocd + 12);
  const offset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    throw new RefusedFileError('The file is a ZIP64 archive, larger than any spreadsheet Verdict reads; see docs/xlsx.md "Limits"');
  }
  if (count > limits.maxParts) throw new RefusedFileError(`The file holds ${count} parts, more than the ${limits.maxParts} a workbook may have`);
  if (offset + size > eocd) throw new RefusedFileError('The file is not a readable XLSX workbook: its zip directory is damaged');
  const parts: Part[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) throw new RefusedFileError('The file is not a readable XLSX workbook: its zip directory is damaged');
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    parts.push({
      method: buf.readUInt16LE(at + 10),
      compressed: buf.readUInt32LE(at + 20),
      uncompressed: buf.readUInt32LE(at + 24),
      name: buf.toString('utf8', at + 46, at + 46 + nameLength),
      localOffset: buf.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return parts;
}

function mib(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

/** Inflates one part with a ceiling, so a part that lies about its size is caught when it passes its limit. */
function inflated(buf: Buffer, part: Part, limits: XlsxLimits): number {
  const at = part.localOffset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== LOCAL) throw new RefusedFileError(`The file is not a readable XLSX workbook: part ${part.name} is damaged`);
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const data = buf.subarray(start, start + part.compressed);
  if (part.method === 0) return data.length;
  if (part.method !== 8) throw new RefusedFileError(`Part ${part.name} uses zip compression method ${part.method}; only stored and deflated parts are read`);
  try {
    return inflateRawSync(data, { maxOutputLength: limits.maxPartBytes }).length;
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new RefusedFileError(`Part ${part.name} inflates to more than ${mib(limits.maxPartBytes)}: refused as a zip bomb`);
    }
    throw new RefusedFileError(`The file is not a readable XLSX workbook: part ${part.name} does not inflate (${(err as Error).message})`);
  }
}

/**
 * Refuses what must never reach the spreadsheet library: not a zip, a zip bomb (declared or real sizes over the
 * limits, or a suspicious compression ratio), macros (vbaProject.bin, a macro-enabled workbook) and external links.
 */
export function inspectArchive(bytes: Uint8Array, limits: XlsxLimits = XLSX_LIMITS): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!looksLikeZip(buf)) throw new RefusedFileError('The file is not an XLSX workbook (it does not start like a zip archive); save it from Excel, LibreOffice or Google Sheets as .xlsx');
  const parts = partsOf(buf, limits);
  let declared = 0;
  for (const part of parts) {
    const lower = part.name.toLowerCase();
    if (lower.endsWith('vbaproject.bin')) {
      throw new RefusedFileError(`The file contains macros (${part.name}); Verdict never reads macro-enabled workbooks: save it as a plain .xlsx without macros`);
    }
    if (lower.startsWith('xl/externallinks/') && !lower.endsWith('/')) {
      throw new RefusedFileError(`The file links to other workbooks (${part.name}); external links are not followed: paste the linked values into the file and save it again`);
    }
    if (part.uncompressed > limits.maxPartBytes) throw new RefusedFileError(`Part ${part.name} declares ${mib(part.uncompressed)}, more than the ${mib(limits.maxPartBytes)} a part may hold: refused as a zip bomb`);
    if (part.uncompressed > 1024 * 1024 && part.uncompressed > part.compressed * limits.maxRatio) {
      throw new RefusedFileError(`Part ${part.name} is compressed more than ${limits.maxRatio} to 1 (${mib(part.uncompressed)} from ${part.compressed} bytes): refused as a zip bomb`);
    }
    declared += part.uncompressed;
  }
  if (declared > limits.maxTotalBytes) throw new RefusedFileError(`The file unpacks to ${mib(declared)}, more than the ${mib(limits.maxTotalBytes)} a workbook may: refused as a zip bomb`);
  let total = 0;
  for (const part of parts) {
    total += inflated(buf, part, limits);
    if (total > limits.maxTotalBytes) throw new RefusedFileError(`The file unpacks to more than ${mib(limits.maxTotalBytes)}: refused as a zip bomb`);
  }
  const types = parts.find((p) => p.name === '[Content_Types].xml');
  if (types && /macroEnabled/i.test(inflatedText(buf, types, limits))) {
    throw new RefusedFileError('The file is a macro-enabled workbook (.xlsm); Verdict never reads macros: save it as a plain .xlsx');
  }
}

function inflatedText(buf: Buffer, part: Part, limits: XlsxLimits): string {
  const at = part.localOffset;
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const data = buf.subarray(start, start + part.compressed);
  return (part.method === 0 ? data : inflateRawSync(data, { maxOutputLength: limits.maxPartBytes })).toString('utf8');
}
