/**
 * The demo's lived-in week: on a first start with DEMO=on, before the simulated fleet runs,
 * seven days of history for every simulated lock, so each page shows what it is for: hourly heartbeats,
 * unlock records, door states, configuration reports and alarms (fleet.ts), alerts in every state,
 * commands with their answers, lock users with passwords, cards and fingerprints in several sync states,
 * their operation logs, and the system log (people.ts). Every table is written by its owning module's
 * history writer, in one transaction. Deterministic but for the clock: the same fleet and the same `now`
 * (rounded to the hour) give the same rows. Seeds nothing when the heartbeat log already holds a row.
 */
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { insertAuditHistory } from '../../modules/auditLog/repo.js';
import { insertCommandHistory, type PastCommand } from '../../modules/command/history.js';
import { insertCredentialHistory } from '../../modules/credential/history.js';
import { insertAlertHistory } from '../../modules/deviceAlert/history.js';
import { seedLockReadings, simulatedLocks } from '../../modules/lockDevice/history.js';
import { insertOpenRecordHistory } from '../../modules/lockOpenRecord/history.js';
import { hasHeartbeats, insertHeartbeatHistory } from '../../modules/logHeartbeat/history.js';
import { insertUplinkHistory } from '../../modules/uplinkLog/history.js';
import { fleetHistory, HOUR, MINUTE } from './fleet.js';
import { planPeople } from './people.js';

/** Days of history seeded. */
export const DEMO_HISTORY_DAYS = 7;

/** Seeds the history (see the module comment); returns the rows written, or undefined when it seeded nothing. */
export async function seedDemoHistory(database: Database, box: SecretBox, now = Date.now()): Promise<number | undefined> {
  return database.transaction(async (tx) => {
    if (await hasHeartbeats(tx)) return undefined;
    const locks = await simulatedLocks(tx);
    if (locks.length === 0) return undefined;
    const end = now - 2 * MINUTE; // the live fleet takes over from here
    const start = Math.floor(end / HOUR) * HOUR - DEMO_HISTORY_DAYS * 24 * HOUR;
    const people = planPeople(locks, start, end);
    const fleet = fleetHistory(locks, start, end, people.plans);
    // In time order, so that ids follow time as they do live (tenant-wide lists order by id).
    const byTime = <T>(rows: T[], time: (row: T) => number) => rows.sort((a, b) => time(a) - time(b));
    await insertHeartbeatHistory(tx, byTime(fleet.heartbeats, (row) => row.receivedAt));
    const uplinkIds = await insertUplinkHistory(tx, byTime(fleet.uplinks, (row) => row.receivedAt));
    const openRecords = fleet.openRecords.flatMap(({ key, ...record }) => {
      const uplinkId = uplinkIds.get(key);
      return uplinkId === undefined ? [] : [{ ...record, uplinkId }];
    });
    await insertOpenRecordHistory(tx, byTime(openRecords, (row) => row.receivedAt));
    await insertAlertHistory(tx, byTime(fleet.alerts, (row) => row.firstAt));
    const commandOrder = byTime([...fleet.commands.keys()], (index) => fleet.commands[index]?.createdAt ?? 0);
    const inserted = await insertCommandHistory(tx, commandOrder.map((index) => fleet.commands[index] as PastCommand), box);
    const commandIds: number[] = [];
    commandOrder.forEach((index, position) => { commandIds[index] = inserted[position] as number; });
    const id = (index: number) => commandIds[index] as number;
    // Rows whose command fell outside the week (none with the default plan) are left out with it.
    const users = people.users.filter((user) => user.command >= 0);
    const userIndex = new Map(people.users.map((user, index) => [index, users.indexOf(user)]));
    const credentials = people.credentials.filter((row) => row.command >= 0 && (userIndex.get(row.user) ?? -1) >= 0);
    const credentialIndex = new Map(people.credentials.map((row, index) => [index, credentials.indexOf(row)]));
    const operations = people.operations.map(({ command, row, ...operation }) => ({
      ...operation, commandId: id(command), row: (operation.subject === 'user' ? userIndex : credentialIndex).get(row) ?? -1,
    })).filter((operation) => operation.row >= 0);
    await insertCredentialHistory(tx, box, {
      users: users.map(({ command, ...user }) => ({ ...user, lastCommandId: id(command) })),
      credentials: credentials.map(({ command, ...row }) => ({ ...row, user: userIndex.get(row.user) as number, lastCommandId: id(command) })),
      operations: byTime(operations, (row) => row.createdAt),
    });
    const accountIds = new Map((await tx.select({ id: accounts.id, username: accounts.username }).from(accounts)).map((row) => [row.username, row.id]));
    const audit = people.audit.map((entry) => ({ ...entry, accountId: accountIds.get(entry.username) ?? null }));
    await insertAuditHistory(tx, byTime(audit, (row) => row.createdAt));
    await seedLockReadings(tx, fleet.readings);
    return fleet.heartbeats.length + fleet.uplinks.length + openRecords.length + fleet.alerts.length + commandIds.length
      + users.length + credentials.length + operations.length + audit.length;
  });
}
