/** Alert-kind labels of the notification screens: the ones 门锁警告 (deviceLog `kinds`) and the air-switch alarms (`airSwitchKinds`) show, and the operational events (`eventKinds`). */
import { isNotificationEventKind, protocol } from '@iot/contract';
import type { TFunction } from 'i18next';

/** The lock alert kinds (raw and derived); the other kinds a rule may watch are air-switch alarms and a lock's operational events. */
export const LOCK_KINDS: ReadonlySet<string> = new Set(Object.keys(protocol.ALERT_KINDS));

/** An alert kind's (or a lock's operational event's) label in the current language (`t` must have the deviceLog namespace loaded). */
export const alertKindLabel = (t: TFunction, kind: string): string =>
  t(LOCK_KINDS.has(kind) ? `deviceLog:kinds.${kind}` : isNotificationEventKind(kind) ? `deviceLog:eventKinds.${kind}` : `deviceLog:airSwitchKinds.${kind}`);
