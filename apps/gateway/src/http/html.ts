/** Markup that is already safe: only `html` and `Html.raw` make one. */
export class Html {
  private constructor(readonly text: string) {}
  /** For constant markup written in this code only, never for a value from a request or the store. */
  static raw(text: string): Html {
    return new Html(text);
  }
  static join(parts: readonly Html[]): Html {
    return new Html(parts.map((p) => p.text).join(''));
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

export type Interpolation = Html | string | number | null | undefined | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A template whose every interpolated value is HTML-escaped, unless it is markup made by `html`
 * itself; arrays are joined, null, undefined and false leave nothing. Attribute values must be
 * quoted in the template.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return Html.raw(out);
}
