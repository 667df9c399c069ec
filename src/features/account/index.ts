/**
 * The account feature's public surface: one's own account page, and the fields and form rules
 * the account screens share (sign-in, sign-up, codes, password reset, an invitation's
 * acceptance, the invitations screen's address). Its layout: forms.ts and fields.ts, page/ (the
 * account page: address, password, sessions, deletion, a guest's upgrade). The requests stay in
 * src/api/account.ts and src/api/auth.ts, which the session machine uses too.
 */
export { authFields } from './fields';
export { codeForm, emailForm, newPasswordForm, resetForm, signinForm, signupForm } from './forms';
export { SecondStep } from './second-step';
export { AccountPage } from './page/account-page';
