/** A page whose endpoint this server does not offer (not in its OpenAPI document). */
export function Unavailable({ what, endpoint }: { what: string; endpoint: string }) {
  return (
    <section className="unavailable" role="status">
      <h2>{what}: not available on this server</h2>
      <p>
        This server's API has no <code>{endpoint}</code> endpoint, so the console cannot show {what.toLowerCase()} here.
      </p>
    </section>
  );
}

export function ErrorLine({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

const FLAG_LABELS: Record<string, string> = { suspected_brigade: 'Suspected brigade', escalated: 'Escalated', sla_breached: 'SLA breached' };
export const flagLabel = (flag: string) => (Object.hasOwn(FLAG_LABELS, flag) ? FLAG_LABELS[flag]! : flag);

export function Badge({ flag }: { flag: string }) {
  const label = flagLabel(flag);
  return <span className={`badge badge-${flag.replace(/[^a-z_]/gi, '')}`}>{label}</span>;
}

export const time = (ms: number | null | undefined) => (typeof ms === 'number' ? new Date(ms).toLocaleString() : '-');
