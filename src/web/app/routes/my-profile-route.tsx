import { Component as MyProfilePage } from '../../features/accounts/my-profile-page.tsx';
import { AddressBookPanel } from '../../features/checkout/address-book-panel.tsx';

/** /dashboard/myprofile: the accounts feature's profile, and the address book checkout keeps. */
export function Component() {
  return (
    <>
      <MyProfilePage />
      <AddressBookPanel />
    </>
  );
}
