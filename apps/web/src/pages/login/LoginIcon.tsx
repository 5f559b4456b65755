/**
 * An Ant Design outlined icon drawn from its SVG definition (@ant-design/icons-svg, the data behind
 * @ant-design/icons), without the icon components' runtime: the sign-in route loads no antd code
 * (bench/lighthouse.ts).
 */
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import { createElement, type ReactElement } from 'react';

function render(node: AbstractNode, key?: number): ReactElement {
  return createElement(node.tag, { key, ...node.attrs }, ...(node.children ?? []).map((child, index) => render(child, index)));
}

/** The icon as an inline SVG of class `login-icon`, hidden from assistive technology. */
export function LoginIcon({ icon }: { icon: IconDefinition }) {
  const root = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  return render({ ...root, attrs: { ...root.attrs, className: 'login-icon', 'aria-hidden': 'true' } });
}
