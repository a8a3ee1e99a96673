/**
 * What a visitor chose on the purchase screen (quantity, address, phone) when Place Order sent them to sign in:
 * kept in this tab (sessionStorage) and put back in the form when they come back, then forgotten.
 */
export interface PurchaseDraft {
  quantity: number;
  address: string;
  phone: string;
}

const keyOf = (partId: string) => `redline.purchase.${partId}`;

export function savePurchaseDraft(partId: string, draft: PurchaseDraft): void {
  try {
    sessionStorage.setItem(keyOf(partId), JSON.stringify(draft));
  } catch {
    // Storage blocked: the visitor types it again after signing in.
  }
}

/** The draft for this part, if a visitor left one (read without forgetting: a render may run twice). */
export function readPurchaseDraft(partId: string): PurchaseDraft | null {
  try {
    const raw = sessionStorage.getItem(keyOf(partId));
    if (raw === null) return null;
    const value = JSON.parse(raw) as Partial<PurchaseDraft>;
    if (!Number.isFinite(value.quantity) || typeof value.address !== 'string' || typeof value.phone !== 'string') {
      return null;
    }
    return { quantity: Number(value.quantity), address: value.address, phone: value.phone };
  } catch {
    return null;
  }
}

/** Forgotten once the visitor is back signed in and the form holds it. */
export function clearPurchaseDraft(partId: string): void {
  try {
    sessionStorage.removeItem(keyOf(partId));
  } catch {
    // Storage blocked: nothing was kept.
  }
}
