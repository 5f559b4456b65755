/**
 * A lock's reported configuration in 门锁配置's column: one labelled field per line ("音量 (%): 60",
 * "自动上锁 (秒): 5"), never JSON. Joined with " · " on one line, the fields broke inside a label at
 * 1366 px ("自 / 动上锁"); a field per line reads as a list. The column is fitted to the widest field.
 */
import type { protocol } from '@iot/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { DrawsCellText } from '../../components/columnFit';
import i18n from '../../i18n';

type Config = protocol.LockConfig | null;

/** "label: value" of each field the lock reported, in its order; none: the "no configuration" text alone. */
function configItems(config: Config, t: TFunction): string[] {
  if (!config) return [t('command:noConfig')];
  return (Object.keys(config) as (keyof protocol.LockConfig)[])
    .map((key) => `${t(`command:${key}`)}: ${key === 'language' ? t(`command:languages.${config[key]}`) : config[key]}`);
}

/** The reported configuration, a field per line. */
export function ConfigItems({ config }: { config: Config }) {
  const { t } = useTranslation('command');
  return <div className="config-items">{configItems(config, t).map((item) => <div key={item}>{item}</div>)}</div>;
}
/** The widest field, for the column's width estimate. */
const widestItem: DrawsCellText<{ config: Config }>['cellText'] = ({ config }) =>
  configItems(config, i18n.t).reduce((widest, item) => (item.length > widest.length ? item : widest), '');
ConfigItems.cellText = widestItem;
