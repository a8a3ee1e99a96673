import { describe, expect, it } from 'vitest';
import { pageWindow } from './parts-pagination.tsx';

describe('pageWindow', () => {
  it('lists every page when there are few', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });

  it('keeps first, last and the neighbours of the current page, with gaps between', () => {
    expect(pageWindow(1, 417)).toEqual([1, 2, 'gap', 417]);
    expect(pageWindow(6, 417)).toEqual([1, 'gap', 5, 6, 7, 'gap', 417]);
    expect(pageWindow(417, 417)).toEqual([1, 'gap', 416, 417]);
    expect(pageWindow(3, 10)).toEqual([1, 2, 3, 4, 'gap', 10]);
  });
});
