/**
 * A sign-in field: a large input with its icon (styles.css `.login-input`, drawn like antd's large
 * Input without antd), red-bordered while the field has an error, the error below it.
 */
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { LoginIcon } from './LoginIcon';

interface LoginFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  /** The input's id and name. */
  name: string;
  icon: IconDefinition;
  /** The field's message (e.g. "请输入用户名"); given, the box is red and the message shows under it. */
  error?: string;
  /** Drawn at the box's end (the password's show/hide button). */
  suffix?: ReactNode;
}

/** One labelled input of the sign-in form. */
export function LoginField({ name, icon, error, suffix, ...input }: LoginFieldProps) {
  return (
    <div className="login-field">
      <span className={`login-input${error ? ' error' : ''}`}>
        <LoginIcon icon={icon} />
        <input id={name} name={name} aria-invalid={error ? true : undefined} {...input} />
        {suffix}
      </span>
      {error && <div className="login-error" role="alert">{error}</div>}
    </div>
  );
}
