/**
 * One wording and one behaviour for form checks: antd's validateMessages for the whole
 * console, so every `required`, `min`, `max`, `len`, `pattern` and type rule without its own message
 * says the same thing in the chosen language, naming the field by its label ("请填写IMEI", "音量须在 0
 * 到 100 之间"); and rules for numbers and lengths that refuse out-of-range input with that message
 * instead of changing it: an InputNumber with `min`/`max` clamps 150 to 100 on blur, with `precision`
 * rounds, and an Input with `maxLength` cuts a pasted 16-digit IMEI to 15. Put `numberRange` /
 * `maxChars` on the Form.Item and no `min`, `max`, `precision` or `maxLength` on the input itself.
 */
import type { ConfigProviderProps, FormRule } from 'antd';
import i18n from '../i18n';

type ValidateMessages = NonNullable<NonNullable<ConfigProviderProps['form']>['validateMessages']>;

/** antd's validateMessages in the current language (the console's ConfigProvider `form`, app/Console.tsx). */
export function validateMessages(): ValidateMessages {
  const v = (key: string) => i18n.t(`common:validate.${key}`);
  return {
    default: v('pattern'),
    required: v('required'),
    whitespace: v('whitespace'),
    pattern: { mismatch: v('pattern') },
    types: { number: v('number'), integer: v('integer'), float: v('number') },
    string: { len: v('lenChars'), min: v('minChars'), max: v('maxChars'), range: v('rangeChars') },
    number: { len: v('range'), min: v('min'), max: v('max'), range: v('range') },
  };
}

/**
 * A number from `min` to `max` (either may be left open), whole unless `places` decimals are allowed:
 * anything else is refused with the console's message naming the range, never moved into it.
 */
export function numberRange(min: number | undefined, max: number | undefined, places = 0): FormRule[] {
  const range: FormRule = { type: places === 0 ? 'integer' : 'number', min, max };
  if (places === 0) return [range];
  return [range, {
    validator: async (_, value: unknown) => {
      if (typeof value === 'number' && Math.abs(Math.round(value * 10 ** places) - value * 10 ** places) > 1e-6) {
        throw new Error(i18n.t('common:validate.decimals', { places }));
      }
    },
  }];
}

/** At most `max` characters: a longer value is refused with the console's message, never cut. */
export const maxChars = (max: number): FormRule => ({ type: 'string', max });
