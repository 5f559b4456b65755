/** How a lock's live state (contract LIVE_STATES) is drawn: antd Badge statuses. */
import type { LiveState } from '@iot/contract';

export const LIVE_BADGE: Record<LiveState, 'success' | 'processing' | 'default'> = { online: 'success', asleep: 'processing', offline: 'default' };
