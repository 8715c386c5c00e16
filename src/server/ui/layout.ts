/** The page every dashboard view sits in: skip link, navigation, sign-out, and the JSON twin. */
import { uiAssets } from './assets.js';
import { html, type SafeHtml } from './html.js';

export const NAV = [
  { path: '/folders', label: 'Folders' },
  { path: '/alerts', label: 'Alerts' },
  { path: '/jobs', label: 'Jobs' },
  { path: '/media', label: 'Media' },
  { path: '/terminated', label: 'Terminated' },
] as const;

export interface PageView {
  title: string;
  body: SafeHtml;
  /** The API route answering the same data, named on the page for scripting (`GET /api/folders`). */
  twin?: string;
  /** HTTP status of the page (an error page's). */
  status?: number;
}

export interface Chrome {
  /** The path shown, to mark its navigation link. */
  path: string;
  /** The signed-in session's CSRF token; absent on the sign-in page. */
  csrf?: string;
}

export function renderPage(view: PageView, chrome: Chrome): string {
  const nav = chrome.csrf
    ? html`<nav aria-label="Main"><ul>${NAV.map((item) => html`<li><a href="${item.path}"${chrome.path === item.path || chrome.path.startsWith(`${item.path}/`) ? html` aria-current="page"` : ''}>${item.label}</a></li>`)}</ul></nav>
<form method="post" action="/sign-out" class="inline"><input type="hidden" name="_csrf" value="${chrome.csrf}"><button type="submit">Sign out</button></form>`
    : '';
  const twin = view.twin ? html`<p class="twin">JSON twin for scripts: <code>${view.twin}</code> (with <code>Authorization: Bearer &lt;key&gt;</code>)</p>` : '';
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${view.title} · tubekit</title><link rel="stylesheet" href="${uiAssets.css.path}"><script src="${uiAssets.js.path}" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><a class="brand" href="/">tubekit</a>${nav}</header>
<main id="main"><h1>${view.title}</h1>${twin}${view.body}</main></body></html>`}`;
}
