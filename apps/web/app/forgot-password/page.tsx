import Link from 'next/link';
import { ForgotPasswordForm } from '../../components/forgot-password-form';

export default function ForgotPasswordPage() {
  return (
    <div className="stack narrow">
      <h1>Forgot your password?</h1>
      <p>
        Enter the address you registered with. If an account uses it, we send a link to choose a new password;
        the link works once and expires soon.
      </p>
      <ForgotPasswordForm />
      <p>
        Remembered it? <Link href="/sign-in">Sign in</Link>.
      </p>
    </div>
  );
}
