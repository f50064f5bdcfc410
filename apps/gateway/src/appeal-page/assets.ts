/**
 * The appeal page's stylesheet and icon, served from our origin (the page's CSP allows no inline
 * style and nothing from elsewhere). Colours keep WCAG AA contrast on white; every control shows
 * a visible focus (:focus-visible), and targets are at least 24 px.
 */
export const PAGE_CSS = `:root {
  color-scheme: light;
  --text: #1a1a1a;
  --muted: #474747;
  --link: #1746b8;
  --focus: #1a1a1a;
  --error: #b3261e;
  --ok: #17613a;
  --warn: #7a4f00;
  --line: #d4d4d4;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
body { margin: 0; color: var(--text); background: #fff; font-size: 1.0625rem; line-height: 1.55; }
.page { max-width: 44rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 0.5rem 1rem; border-bottom: 1px solid var(--line); padding-bottom: 0.5rem; margin-bottom: 1.5rem; }
.site { margin: 0; font-weight: 600; }
nav ul { display: flex; gap: 0.25rem; margin: 0; padding: 0; list-style: none; }
nav a { display: inline-block; min-width: 24px; min-height: 24px; padding: 0.25rem 0.5rem; }
nav a[aria-current="true"] { font-weight: 700; color: var(--text); text-decoration-thickness: 2px; }
a { color: var(--link); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 2px; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 0.75rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 0.5rem; }
h3 { font-size: 1.15rem; margin: 1.25rem 0 0.5rem; }
h4 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.lede { font-size: 1.125rem; }
.facts { margin: 0; }
.facts > div { display: grid; grid-template-columns: 13rem 1fr; gap: 0.25rem 1rem; padding: 0.6rem 0; border-top: 1px solid var(--line); }
.facts > div:last-child { border-bottom: 1px solid var(--line); }
dt { font-weight: 600; }
dd { margin: 0; }
@media (max-width: 40rem) { .facts > div { grid-template-columns: 1fr; } }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
blockquote { margin: 0.5rem 0 1rem; padding: 0.5rem 1rem; border-left: 4px solid #6b6b6b; background: #f4f4f4; }
label { display: block; font-weight: 600; font-size: 1.125rem; }
.hint { margin: 0.25rem 0 0.5rem; color: var(--muted); }
textarea { display: block; box-sizing: border-box; width: 100%; min-height: 12rem; padding: 0.5rem; font: inherit; color: var(--text); background: #fff; border: 2px solid var(--text); border-radius: 4px; }
.field-invalid { border-left: 5px solid var(--error); padding-left: 0.75rem; }
.field-invalid textarea { border-color: var(--error); }
.field-error { margin: 0.25rem 0 0.5rem; color: var(--error); font-weight: 600; }
button { margin-top: 1rem; min-height: 44px; padding: 0.6rem 1.25rem; font: inherit; font-weight: 600; color: #fff; background: var(--link); border: 2px solid var(--link); border-radius: 4px; cursor: pointer; }
button:hover { background: #10337f; border-color: #10337f; }
button:focus-visible { outline: 3px solid var(--focus); outline-offset: 3px; }
.error-summary { margin: 1rem 0; padding: 0.75rem 1rem; border: 3px solid var(--error); }
.error-summary h3 { margin-top: 0; }
.error-summary ul { margin: 0; padding-left: 1.25rem; }
.error-summary a { color: var(--error); font-weight: 600; }
.notice { margin: 0 0 1rem; padding: 0.75rem 1rem; border-left: 6px solid; }
.notice-ok { border-color: var(--ok); background: #eef7f1; }
.notice-warn { border-color: var(--warn); background: #fdf6e7; }
.outcome { padding: 0.25rem 1rem 0.5rem; border-left: 6px solid; }
.outcome-overturned { border-color: var(--ok); background: #eef7f1; }
.outcome-upheld { border-color: #6b6b6b; background: #f4f4f4; }
.outcome blockquote { background: #fff; }
footer { margin-top: 3rem; padding-top: 0.75rem; border-top: 1px solid var(--line); color: var(--muted); font-size: 0.9375rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;

/** A plain shield, so the browser's request for an icon finds one. */
export const PAGE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 2 4 6v9c0 7.5 5.1 13.2 12 15 6.9-1.8 12-7.5 12-15V6z" fill="#1746b8"/><path d="m10 16 4 4 8-8" fill="none" stroke="#fff" stroke-width="3"/></svg>
`;
