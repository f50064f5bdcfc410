/** Plain SVG charts: a line over samples and horizontal bars. No chart library, no inline script. */

export function LineChart({ title, points }: { title: string; points: { at: number; value: number }[] }) {
  const w = 320;
  const h = 90;
  const values = points.map((p) => p.value);
  const max = Math.max(1, ...values);
  const step = points.length > 1 ? w / (points.length - 1) : 0;
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${(i * step).toFixed(1)},${(h - (p.value / max) * (h - 10) - 5).toFixed(1)}`).join(' ');
  const last = values[values.length - 1];
  return (
    <figure className="chart">
      <figcaption>
        {title}: <strong>{last === undefined ? '-' : format(last)}</strong>
      </figcaption>
      <svg viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label={`${title} over time, last ${last === undefined ? 'unknown' : format(last)}`}>
        <line x1={0} y1={h - 5} x2={w} y2={h - 5} className="axis" />
        {points.length > 1 ? <path d={path} className="line" /> : points.length === 1 ? <circle cx={4} cy={h - (points[0]!.value / max) * (h - 10) - 5} r={3} className="dot" /> : null}
      </svg>
    </figure>
  );
}

export function BarChart({ title, bars }: { title: string; bars: { label: string; value: number }[] }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 22;
  const w = 360;
  const labelW = 120;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      {bars.length === 0 ? (
        <p className="hint">Nothing yet.</p>
      ) : (
        <svg viewBox={`0 0 ${w} ${bars.length * row}`} width={w} height={bars.length * row} role="img" aria-label={title}>
          {bars.map((b, i) => (
            <g key={b.label} transform={`translate(0, ${i * row})`}>
              <text x={0} y={15} className="label">
                {b.label.length > 16 ? `${b.label.slice(0, 15)}…` : b.label}
              </text>
              <rect x={labelW} y={4} height={14} width={Math.max(1, ((w - labelW - 50) * b.value) / max)} className="bar" />
              <text x={labelW + ((w - labelW - 50) * b.value) / max + 4} y={15} className="value">
                {format(b.value)}
              </text>
            </g>
          ))}
        </svg>
      )}
    </figure>
  );
}

export const format = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
