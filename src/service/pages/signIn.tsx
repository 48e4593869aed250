/** The sign-in page: a reviewer pastes the token `evalgate reviewers add` printed. */
import { Layout } from "./layout.js";

export function SignInPage(props: { csrf: string; error?: string }) {
  return (
    <Layout title="Sign in">
      <section class="signin">
        <h1>Sign in</h1>
        <p class="muted">
          Paste the token you were given (an administrator creates it with{" "}
          <code>evalgate reviewers add</code>).
        </p>
        {props.error !== undefined ? (
          <p class="error" role="alert">
            {props.error}
          </p>
        ) : null}
        <form method="post" action="/signin">
          <input type="hidden" name="_csrf" value={props.csrf} />
          <label for="token">Token</label>
          <input id="token" name="token" type="password" autocomplete="off" required />
          <p>
            <button type="submit" class="primary">
              Sign in
            </button>
          </p>
        </form>
      </section>
    </Layout>
  );
}
