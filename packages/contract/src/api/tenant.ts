/**
 * Data centres (tenants): the static list behind the header's selector (spec §2 "Header", §7), and a
 * data centre's settings: its time zone, which every page, the big screen, exports and the analysis'
 * days use, its stays' default buffers (minutes) and whether the platform issues
 * backup codes by itself (docs/stays.md "Automatic backup codes"); changed only with
 * TENANT_SETTINGS (administrators hold every key).
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { FIRST_LOAD_ROUTES } from './firstLoad.js';
import { bufferMinutes, timeZoneName } from './input.js';

export const dataCentreOption = z.object({ label: z.string(), value: z.number().int() });
export type DataCentreOption = z.infer<typeof dataCentreOption>;

/**
 * The request's data centre: id, name, IANA time zone, and the buffers a stay booked without its own
 * gets, minutes (doors open this early before check-in, this late after check-out), and
 * `stayAutoBackupCode`: true when the backup-code job issues a backup code by itself to each door of a
 * checked-in stay whose guest's own code is not 正常 yet (default false).
 */
export const tenantSettings = z.object({
  tenantId: z.number().int(), name: z.string(), timeZone: z.string(),
  stayBufferBeforeMinutes: z.number().int(), stayBufferAfterMinutes: z.number().int(), stayAutoBackupCode: z.boolean(),
});
export type TenantSettings = z.infer<typeof tenantSettings>;
/** A partial update: only the fields sent change. */
export const tenantSettingsBody = z.strictObject({
  timeZone: timeZoneName.optional(), stayBufferBeforeMinutes: bufferMinutes.optional(), stayBufferAfterMinutes: bufferMinutes.optional(),
  stayAutoBackupCode: z.boolean().optional(),
});
export type TenantSettingsBody = z.infer<typeof tenantSettingsBody>;

/** Served as a plain JSON array (not enveloped), as the spec's static file is. */
export const tenantEndpoints = {
  config: endpoint({ ...FIRST_LOAD_ROUTES.tenant.config, response: z.array(dataCentreOption) }),
  settings: endpoint({ method: 'GET', path: '/iot/v1/tenant/settings', access: 'authenticated', kind: 'token', response: tenantSettings }),
  /** Sets the data centre's time zone, default stay buffers and/or automatic backup codes; the system log records each before and after. */
  saveSettings: endpoint({
    method: 'POST', path: '/iot/v1/tenant/settings', access: 'TENANT_SETTINGS', kind: 'token',
    action: { label: { 'zh-CN': '修改数据中心设置', 'en-US': 'Change data-centre settings' }, target: ['timeZone'], entity: 'tenant' },
    body: tenantSettingsBody, response: tenantSettings,
  }),
};
