/** A refused or failed page: the API's own message and status, never an empty page. */
import type { ServiceError } from '../../../core/errors.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';

export function errorView(failure: ServiceError): PageView {
  return {
    title: failure.status === 404 ? 'Not found' : failure.status === 403 ? 'Not allowed' : 'Something went wrong',
    status: failure.status,
    body: html`<p class="error" role="alert">${failure.message}</p>${failure.hint ? html`<p>${failure.hint}</p>` : ''}`,
  };
}
