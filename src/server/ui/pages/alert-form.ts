/** The alert form (create and edit): its fields, and the route input a posted form makes. */
import { ALERT_TYPES, CONTENT_TYPES, type Alert } from '../../../core/schemas/alerts.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, type PageContext } from '../page-context.js';

/** The filters the form offers (the rest stay as the API or CLI set them). */
export const FORM_FILTERS = [
  { name: 'min_subs', label: 'Minimum subscribers', list: false },
  { name: 'max_subs', label: 'Maximum subscribers', list: false },
  { name: 'min_views', label: 'Minimum views', list: false },
  { name: 'max_views', label: 'Maximum views', list: false },
  { name: 'languages', label: 'Languages (comma-separated)', list: true },
  { name: 'keywords', label: 'Keywords (comma-separated)', list: true },
] as const;

type FormValues = Record<string, unknown>;

/** The form's values from an alert being edited. */
export function alertValues(alert: Alert): FormValues {
  const values: FormValues = { name: alert.name, alert_type: alert.alert_type, content_type: alert.content_type, enabled: alert.enabled };
  for (const filter of FORM_FILTERS) {
    const value = alert.filters[filter.name];
    if (value !== undefined) values[filter.name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return values;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

export function alertForm(context: PageContext, action: string, values: FormValues, editing: boolean, error?: string): SafeHtml {
  const select = (name: string, label: string, options: readonly string[]) =>
    html`<label for="alert-${name}">${label}<select id="alert-${name}" name="${name}"${editing ? html` disabled` : ''}>${options.map((option) => html`<option value="${option}"${values[name] === option ? html` selected` : ''}>${option}</option>`)}</select></label>`;
  return html`<form method="post" action="${action}" class="stack" aria-label="${editing ? 'Edit alert' : 'New alert'}">${csrfField(context)}
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<label for="alert-name">Name<input id="alert-name" name="name" required maxlength="100" value="${text(values.name)}"></label>
${select('alert_type', 'Alert type', ALERT_TYPES)}${select('content_type', 'Content type', CONTENT_TYPES)}
${FORM_FILTERS.map((filter) => html`<label for="alert-${filter.name}">${filter.label}<input id="alert-${filter.name}" name="${filter.name}"${filter.list ? '' : html` inputmode="numeric"`} value="${text(values[filter.name])}"></label>`)}
${editing ? html`<label class="check" for="alert-enabled"><input type="checkbox" id="alert-enabled" name="enabled" value="on"${values.enabled === true || values.enabled === 'on' ? html` checked` : ''}>Enabled</label>` : ''}
<button type="submit" class="primary">${editing ? 'Save alert' : 'Create alert'}</button></form>`;
}

/** The filters a posted form sets: empty fields are left out, lists split at commas. */
export function formFilters(form: FormValues): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const filter of FORM_FILTERS) {
    const value = text(form[filter.name]).trim();
    if (value === '') continue;
    filters[filter.name] = filter.list ? value.split(',').map((item) => item.trim()).filter(Boolean) : value;
  }
  return filters;
}
