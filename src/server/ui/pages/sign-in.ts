/** The sign-in form: an API key posted once, never put in a URL or echoed back. */
import { html } from '../html.js';
import type { PageView } from '../layout.js';

export function signInView(csrf: string, error?: string, status?: number): PageView {
  return {
    title: 'Sign in',
    status,
    body: html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/sign-in" class="stack">
<input type="hidden" name="_csrf" value="${csrf}">
<label for="key">API key<input id="key" name="key" type="password" autocomplete="current-password" required spellcheck="false"></label>
<button type="submit" class="primary">Sign in</button>
</form>
<p>Create a key with <code>tubekit engine keys create</code>. The dashboard keeps it on the server for this session only.</p>`,
  };
}
