/** One page's crash stays in that page: an antd Result with a retry, the console frame keeps working. */
import { Button } from 'antd';
import { Result } from './LazyResult';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function Crashed({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return <Result status="error" title={t('pageCrashed')} subTitle={t('pageCrashedDetail')} extra={<Button onClick={onRetry}>{t('reloadPage')}</Button>} />;
}

/** Catches render errors of its children; `resetKey` changing (another page) clears the error. */
export class PageErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean; key: string }> {
  state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError(): Partial<{ failed: boolean }> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { failed: boolean; key: string }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  componentDidCatch(error: unknown): void {
    console.error('page crashed', error);
  }

  render() {
    return this.state.failed ? <Crashed onRetry={() => this.setState({ failed: false })} /> : this.props.children;
  }
}
