/**
 * Size check of a zip archive (an .xlsx workbook) BEFORE it is handed to SheetJS, which inflates
 * every entry fully in memory: a 7 KB zip bomb would otherwise grow to gigabytes. Each entry is
 * inflated here with zlib's `maxOutputLength`, so an entry whose header lies about its size is caught
 * too. Only the central directory and the entries' own bytes are read; nothing is written.
 */
import { inflateRawSync } from "node:zlib";

export class ZipLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipLimitError";
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

/** Offset of the end-of-central-directory record, searched backwards over the longest comment. */
function findEocd(buf: Buffer): number {
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD_SIGNATURE) return i;
  }
  return -1;
}

/**
 * Total uncompressed size of the archive's entries; throws ZipLimitError when it exceeds `maxBytes`,
 * when there are more than `maxEntries` entries, or when the archive is malformed.
 */
export function checkZipSize(bytes: Uint8Array, maxBytes: number, maxEntries = 10_000): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEocd(buf);
  if (eocd < 0) throw new ZipLimitError("corrupt zip: no end-of-central-directory record (truncated file?)");
  const entries = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (entries === 0xffff || cdOffset === 0xffffffff)
    throw new ZipLimitError("zip64 archives are not supported (a workbook over 4 GB?)");
  if (entries > maxEntries) throw new ZipLimitError(`the archive has ${entries} entries (limit ${maxEntries})`);
  let total = 0;
  let p = cdOffset;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL_SIGNATURE)
      throw new ZipLimitError("corrupt zip: bad central directory");
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const declared = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL_SIGNATURE)
      throw new ZipLimitError("corrupt zip: bad local header");
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + compressed > buf.length) throw new ZipLimitError("corrupt zip: an entry runs past the end of the file");
    const remaining = maxBytes - total;
    if (declared > remaining) throw new ZipLimitError(`it would unpack to more than ${maxBytes} bytes (limit)`);
    let size = declared;
    if (method === 0) size = compressed;
    else if (method === 8) {
      try {
        size = inflateRawSync(buf.subarray(start, start + compressed), {
          maxOutputLength: Math.max(1, remaining),
        }).length;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "ERR_BUFFER_TOO_LARGE")
          throw new ZipLimitError(`it unpacks to more than ${maxBytes} bytes (limit; a zip bomb?)`);
        throw new ZipLimitError(`corrupt zip entry (${(error as Error).message})`);
      }
    }
    total += size;
    if (total > maxBytes) throw new ZipLimitError(`it unpacks to more than ${maxBytes} bytes (limit; a zip bomb?)`);
  }
  return total;
}
