/** What a dashboard page or form action gets: its request's fields and the engine, as the signed-in user. */
import type { RouteName, RouteOutput } from '../../core/routes.js';
import { html, type SafeHtml } from './html.js';
import type { PageView } from './layout.js';

export interface PageContext {
  query: Record<string, unknown>;
  params: Record<string, string>;
  /** A posted form's fields (empty for a GET). */
  form: Record<string, unknown>;
  /** The session's CSRF token, for the forms a page renders. */
  csrf: string;
  /** A call of the API's route, through the engine's own handling: plans, caps and ownership as for the API. */
  call<N extends RouteName>(name: N, input: Record<string, unknown>): Promise<RouteOutput<N>>;
}

export type PageHandler = (context: PageContext) => Promise<PageView>;
/** A form's action: where to go after it succeeded, or the page to show again (with its error). */
export type ActionHandler = (context: PageContext) => Promise<{ redirect: string } | PageView>;

/** The hidden field every form of a session carries. */
export function csrfField(context: Pick<PageContext, 'csrf'>): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${context.csrf}">`;
}
