/**
 * Every lock one click away (issue #17): the ONE place that decides where a lock's IMEI or name leads.
 * 设备信息 (/Information?imei=) is not built yet, so a lock leads to its heartbeat log filtered to it;
 * switching all links to the device page is a change of `lockPath` alone.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The in-app path of a lock's own page (today: its heartbeat log, filtered to the lock). */
export function lockPath(imei: string): string {
  return `/heartbeatLog?${new URLSearchParams({ imei })}`;
}

/** A link to the lock's page showing `children` (default: the IMEI); plain text without an IMEI. */
export function LockLink({ imei, children }: { imei: string | null | undefined; children?: ReactNode }) {
  if (!imei) return <>{children ?? '—'}</>;
  return <Link className="lock-link" to={lockPath(imei)}>{children ?? imei}</Link>;
}
