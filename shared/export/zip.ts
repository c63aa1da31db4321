/**
 * A zip archive of text files, stored without compression (method 0): what the app's
 * "Download all" saves. Every unzip tool and file manager reads it, and a stored entry is
 * exactly the file the CLI writes. Names are UTF-8 (flag bit 11). Pure: the same files and
 * date give the same bytes.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3), as zip stores it for each entry. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MS-DOS date and time (local fields, 2-second resolution), zip's entry timestamp. */
function dosDateTime(d: Date): { date: number; time: number } {
  const year = Math.min(Math.max(d.getFullYear(), 1980), 2107);
  return {
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
  };
}

/** Little-endian fields in order: [value, bytes]. */
function fields(values: readonly (readonly [number, 2 | 4])[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(values.reduce((n, [, size]) => n + size, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const [value, size] of values) {
    if (size === 2) view.setUint16(at, value, true);
    else view.setUint32(at, value >>> 0, true);
    at += size;
  }
  return out;
}

const UTF8_NAMES = 1 << 11;

/** Files (name, text) as one zip archive; `date` is every entry's timestamp. */
export function zipFiles(
  files: readonly { name: string; content: string }[],
  date: Date,
): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const { date: dosDate, time: dosTime } = dosDateTime(date);
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const file of files) {
    const name = encoder.encode(file.name);
    const data = encoder.encode(file.content);
    const crc = crc32(data);
    // version needed, flags, method (stored), time, date, crc, sizes, name length, extra length
    const common = [
      [10, 2],
      [UTF8_NAMES, 2],
      [0, 2],
      [dosTime, 2],
      [dosDate, 2],
      [crc, 4],
      [data.length, 4],
      [data.length, 4],
      [name.length, 2],
      [0, 2],
    ] as const;
    const local = fields([[0x04034b50, 4], ...common]);
    chunks.push(local, name, data);
    // made by (2.0, MS-DOS attributes), then the local fields, comment, disk, attributes, offset
    central.push(
      fields([[0x02014b50, 4], [20, 2], ...common, [0, 2], [0, 2], [0, 2], [0, 4], [offset, 4]]),
      name,
    );
    offset += local.length + name.length + data.length;
  }
  const directorySize = central.reduce((n, c) => n + c.length, 0);
  const end = fields([
    [0x06054b50, 4],
    [0, 2],
    [0, 2],
    [files.length, 2],
    [files.length, 2],
    [directorySize, 4],
    [offset, 4],
    [0, 2],
  ]);
  const all = [...chunks, ...central, end];
  const out = new Uint8Array(all.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of all) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
