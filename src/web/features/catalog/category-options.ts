import type { CategoryNode } from '../../../shared/schemas/fitment.ts';

export interface CategoryOption {
  slug: string;
  label: string;
}

/** The category tree (two levels) as one list, a subcategory named by its path: "Brakes › Pads". */
export function categoryOptions(roots: readonly CategoryNode[]): CategoryOption[] {
  return roots.flatMap((root) => [
    { slug: root.slug, label: root.name },
    ...root.children.map((child) => ({ slug: child.slug, label: `${root.name} › ${child.name}` })),
  ]);
}
