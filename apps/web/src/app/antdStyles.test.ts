import { describe, expect, it } from 'vitest';
import { antdStaticCss } from '../../vite.antd';

describe('antdStaticCss', () => {
  it('drops the extraction-scoped variable blocks and the unused components, keeps the rest', () => {
    const css = '.css-var-_R_0_{--ant-blue:#1677FF;}.css-var-_R_1_.ant-btn{--ant-button-x:1px;}.ant-btn{color:red;}'
      + '.ant-slider{margin:0;}.ant-slider-rail,.ant-select{top:0;}.ant-sliderx{top:1px;}'
      + '@media (max-width:575px){.ant-cascader-menu{width:100%;}}@media (max-width:575px){.ant-col-xs-1{width:4%;}}';
    expect(antdStaticCss(css)).toBe('.ant-btn{color:red;}.ant-slider-rail,.ant-select{top:0;}.ant-sliderx{top:1px;}'
      + '@media (max-width:575px){.ant-col-xs-1{width:4%;}}');
  });
});
