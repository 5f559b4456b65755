/**
 * The demo's holiday calendar: China's 2026 public holidays and 调休 working days as the
 * State Council published them (国办发明电〔2025〕7号), as the CSV an operator would import on 节假日日历
 * (docs/access-schedules.md has the same file). Seeded for data centre 100 through the import itself,
 * scoped to building A栋, not applied (the operator applies it). Demo data only: the platform knows no
 * holiday by itself.
 */
import type { Database } from '../../db/client.js';
import { rowsOfSheet, sheetLimits } from '../../http/sheet.js';
import { readCsv } from '../../spreadsheet/csv-read.js';
import { holidayCalendars } from '../../db/schema.js';
import { saveCalendar } from '../../modules/holidayCalendar/calendars.js';
import { HOLIDAY_SHEET, importEntries } from '../../modules/holidayCalendar/entries.js';

export const CN_2026_HOLIDAYS = `开始日期,结束日期,类型（假日/调休上班）,名称,运行模式,按星期几上班
2026-01-01,2026-01-03,假日,元旦,假期（禁止用户开门）,
2026-01-04,2026-01-04,调休上班,元旦调休上班,,周五
2026-02-14,2026-02-14,调休上班,春节调休上班,,周一
2026-02-15,2026-02-23,假日,春节,假期（禁止用户开门）,
2026-02-28,2026-02-28,调休上班,春节调休上班,,周二
2026-04-04,2026-04-06,假日,清明节,假期（禁止用户开门）,
2026-05-01,2026-05-05,假日,劳动节,假期（禁止用户开门）,
2026-05-09,2026-05-09,调休上班,劳动节调休上班,,周二
2026-06-19,2026-06-21,假日,端午节,假期（禁止用户开门）,
2026-09-20,2026-09-20,调休上班,国庆节调休上班,,周一
2026-09-25,2026-09-27,假日,中秋节,假期（禁止用户开门）,
2026-10-01,2026-10-07,假日,国庆节,假期（禁止用户开门）,
2026-10-10,2026-10-10,调休上班,国庆节调休上班,,周三
`;

const NAME = '中国法定节假日 2026';

/** Seeds the calendar for data centre 100 unless it has one by that name. */
export async function seedDemoHolidays(database: Database): Promise<void> {
  await database.withTenant(100, async (tx) => {
    const existing = await tx.select({ name: holidayCalendars.name }).from(holidayCalendars);
    if (existing.some((row) => row.name === NAME)) return;
    const { id } = await saveCalendar(tx, 100, { name: NAME, buildings: ['A栋'], groupIds: [] });
    const rows = rowsOfSheet(readCsv(Buffer.from(CN_2026_HOLIDAYS, 'utf8'), sheetLimits(HOLIDAY_SHEET)), HOLIDAY_SHEET);
    const result = await importEntries(tx, 100, id, rows);
    if (result.problems.length > 0) throw new Error(`demo holidays: ${JSON.stringify(result.problems)}`);
  });
}
