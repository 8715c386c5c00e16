/**
 * Whether an address belongs to this machine or a non-public network, in any spelling: the guard
 * of every request whose target a user chooses (outside pages of the live checks, webhooks).
 */
import net from 'node:net';

/** Loopback, private, link-local, carrier-grade NAT, unspecified, multicast and reserved ranges, in any spelling. */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 100 && b >= 64 && b < 128) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168);
  }
  const bytes = ipv6Bytes(address);
  if (!bytes) return true; // not an address this code can read: never connect to it
  const ipv4At = (offset: number) => isPrivateAddress(Array.from(bytes.subarray(offset, offset + 4)).join('.'));
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return ipv4At(12); // ::ffff:a.b.c.d
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return ipv4At(12); // ::ffff:0:a.b.c.d (SIIT)
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return ipv4At(12); // NAT64 64:ff9b::/96
  if (bytes[0] === 0) return true; // ::/8, reserved: ::, ::1, the IPv4-compatible ::a.b.c.d
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return ipv4At(2); // 6to4 2002::/16
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x00 && bytes[3] === 0x00) return true; // Teredo
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8) return true; // documentation
  return (bytes[0]! & 0xfe) === 0xfc || (bytes[0] === 0xfe && (bytes[1]! & 0xc0) !== 0) || bytes[0] === 0xff || (bytes[0] === 0x01 && zeros(1, 8));
}

/** The IPv4 address an IPv4-mapped IPv6 one carries (`::ffff:127.0.0.1`, or as URLs write it, `::ffff:7f00:1`), or null. */
export function mappedIPv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  if (!bytes || !bytes.subarray(0, 10).every((byte) => byte === 0) || bytes[10] !== 0xff || bytes[11] !== 0xff) return null;
  return Array.from(bytes.subarray(12, 16)).join('.');
}

/** The 16 bytes of an IPv6 address in any valid spelling (zone dropped), or null. */
function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.replace(/%.*$/, '').toLowerCase();
  if (!net.isIPv6(text)) return null;
  let groups = text;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    groups = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = groups.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const all = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  if (all.length !== 8) return null;
  const bytes = new Uint8Array(16);
  all.forEach((group, index) => {
    const value = parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 255;
  });
  return bytes;
}
