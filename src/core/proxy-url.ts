/**
 * A proxy for the live platform's requests (`--proxy`, TUBEKIT_PROXY, HTTPS_PROXY): an http or
 * https URL naming a host, optionally a port and credentials, nothing else. Credentials never
 * reach a message or a trace.
 */

/** What is wrong with a proxy URL, or null when it is one. */
export function proxyUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `is not an http or https proxy (${url.protocol.slice(0, -1)})`;
  if (!url.hostname) return 'names no host';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return 'has a path, query or fragment (a proxy URL has only scheme, host and port)';
  return null;
}

/** The URL with any user and password hidden, for messages and traces. */
export function proxyForDisplay(value: string): string {
  return value.replace(/(\/\/)[^/@\s]*@/, '$1***@');
}
