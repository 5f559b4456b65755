/**
 * Every lock one click away: the ONE place that decides where a lock's IMEI or name leads:
 * its 设备信息 page (/Information?imei=).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The in-app path of a lock's own page, 设备信息. */
export function lockPath(imei: string): string {
  return `/Information?${new URLSearchParams({ imei })}`;
}

/** A link to the lock's page showing `children` (default: the IMEI); plain text without an IMEI. */
export function LockLink({ imei, children }: { imei: string | null | undefined; children?: ReactNode }) {
  if (!imei) return <>{children ?? '—'}</>;
  return <Link className="lock-link" to={lockPath(imei)}>{children ?? imei}</Link>;
}
