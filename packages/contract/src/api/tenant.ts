/** Data centres (tenants): the static list behind the header's selector (spec §2 "Header", §7). */
import { z } from 'zod';
import { endpoint } from './endpoint.js';

export const dataCentreOption = z.object({ label: z.string(), value: z.number().int() });
export type DataCentreOption = z.infer<typeof dataCentreOption>;

/** Served as a plain JSON array (not enveloped), as the spec's static file is. */
export const tenantEndpoints = {
  config: endpoint({ method: 'GET', path: '/static/config.json', access: 'public', kind: 'tokenless', response: z.array(dataCentreOption) }),
};
