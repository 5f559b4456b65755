/**
 * 空开分析 routes (AIRSWITCH_RULE, every query in the caller's tenant transaction: another data
 * centre's switch, circuit, command or alert is 404 / invisible): list, detail, register, remote
 * switching and threshold pushes (checked against the model's ratings on the merged state, limits.ts;
 * a command queued; its `command.queued` event wakes the dispatcher once committed),
 * alerts and their acknowledgement, energy analysis and its .xlsx export per chart; and the alarm log's
 * air switch routes (alert-log-routes.ts, authority LOCK_ALERT_LOG).
 */
import { airSwitchEndpoints, type EnergyAnalysis, type LocalizedText, localized as h } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { ApiError } from '../../http/api-error.js';
import { type ExportColumn, sendExport } from '../../http/export.js';
import { airSwitchAlertLogRoutes } from './alert-log-routes.js';
import { listAirSwitchAlerts } from './alert-log.js';
import { acknowledgeAirSwitchAlerts } from '../deviceAlert/air-switch.js';
import { energyAnalysis } from './analysis.js';
import { enqueueAirSwitchCommand, findAirSwitchCommand, recentCommands } from '../command/air-switch.js';
import { checkCircuit, checkThresholds } from './limits.js';
import { getAirSwitch, listAirSwitches, lockedCircuit, registerAirSwitch, setDesiredThresholds } from './registry.js';

type Row = Record<string, string | number>;
const col = (key: string, header: LocalizedText, width = 16): ExportColumn<Row> => ({ header, value: (row) => row[key] ?? null, width });
const CHART_COLUMNS: Record<keyof EnergyAnalysis, ExportColumn<Row>[]> = {
  byCircuit: [col('period', h('日期', 'Period')), col('airSwitchName', h('空开', 'Air switch'), 24), col('circuitName', h('回路', 'Circuit')), col('kwh', h('电量 (kWh)', 'Energy (kWh)'))],
  byPeriod: [col('period', h('日期', 'Period')), col('kwh', h('电量 (kWh)', 'Energy (kWh)')), col('peakW', h('峰值负荷 (W)', 'Peak demand (W)')), col('trips', h('跳闸次数', 'Trips'))],
  top: [col('airSwitchName', h('空开', 'Air switch'), 24), col('circuitName', h('回路', 'Circuit')), col('kwh', h('电量 (kWh)', 'Energy (kWh)'))],
  loadCurve: [col('hour', h('时段', 'Hour'), 26), col('avgW', h('平均负荷 (W)', 'Average load (W)')), col('maxW', h('最大负荷 (W)', 'Highest load (W)'))],
};

/** Registers the air switch routes. */
export async function airSwitchRoutes(app: FastifyInstance): Promise<void> {
  const rollupZone = () => app.config.TELEMETRY_TIME_ZONE;
  registerEndpoint(app, airSwitchEndpoints.list, ({ query, inTenant }) => inTenant((tx) => listAirSwitches(tx, query)));
  registerEndpoint(app, airSwitchEndpoints.detail, ({ query, inTenant }) =>
    inTenant(async (tx) => ({ ...(await getAirSwitch(tx, query.id)), commands: await recentCommands(tx, query.id) })));
  registerEndpoint(app, airSwitchEndpoints.add, ({ body, tenantId, inTenant }) => inTenant((tx) => registerAirSwitch(tx, tenantId, body)));

  registerEndpoint(app, airSwitchEndpoints.switch, async ({ body, tenantId, principal, inTenant }) => {
    const command = await inTenant(async (tx) => {
      await checkCircuit(tx, body.id, body.circuit);
      await lockedCircuit(tx, body.id, body.circuit);
      return enqueueAirSwitchCommand(tx, {
        tenantId, airSwitchId: body.id, circuit: body.circuit, type: 'switch', data: { circuit: body.circuit, on: body.on }, createdBy: principal.username,
      });
    });
    return command;
  });

  registerEndpoint(app, airSwitchEndpoints.thresholds, async ({ body, tenantId, principal, inTenant }) => {
    const command = await inTenant(async (tx) => {
      await checkCircuit(tx, body.id, body.circuit);
      const circuit = await lockedCircuit(tx, body.id, body.circuit);
      await checkThresholds(tx, body.id, circuit, body.thresholds);
      await setDesiredThresholds(tx, circuit.id, body.thresholds);
      return enqueueAirSwitchCommand(tx, {
        tenantId, airSwitchId: body.id, circuit: body.circuit, type: 'thresholds', data: { circuit: body.circuit, thresholds: body.thresholds }, createdBy: principal.username,
      });
    });
    return command;
  });

  registerEndpoint(app, airSwitchEndpoints.command, ({ query, inTenant }) => inTenant(async (tx) => {
    const found = await findAirSwitchCommand(tx, query.id);
    if (!found) throw new ApiError('NOT_FOUND');
    return found;
  }));
  registerEndpoint(app, airSwitchEndpoints.alerts, ({ query, inTenant }) => inTenant((tx) => listAirSwitchAlerts(tx, { ...query, activeFirst: true })));
  registerEndpoint(app, airSwitchEndpoints.acknowledgeAlerts, ({ body, principal, inTenant }) =>
    inTenant(async (tx) => ({ acknowledged: await acknowledgeAirSwitchAlerts(tx, body.ids, principal.username, body.note) })));
  registerEndpoint(app, airSwitchEndpoints.energy, ({ query, inTenant }) => inTenant((tx) => energyAnalysis(tx, query, rollupZone())));
  registerEndpoint(app, airSwitchEndpoints.energyExport, async ({ query, inTenant, request, reply }) => {
    const { chart, format, ...range } = query;
    const analysis = await inTenant((tx) => energyAnalysis(tx, range, rollupZone()));
    const rows = analysis[chart] as unknown as Row[];
    return sendExport({ request, reply, format, name: `air-switch-${chart}`, columns: CHART_COLUMNS[chart], rows, max: 100_000 });
  }, { raw: true });
  airSwitchAlertLogRoutes(app);
}
