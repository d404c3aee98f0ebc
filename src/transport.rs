//! Where a signed request carries its protocol parameters (RFC 5849 §3.5).

/// Where the protocol parameters and the signature are sent (RFC 5849 §3.5). The signature is
/// the same whichever is chosen: the base string does not depend on the transport.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Transport {
    /// The `Authorization: OAuth …` header (§3.5.1), replacing any the request had.
    #[default]
    Header,
    /// The query of the URI, after the parameters it already has (§3.5.3).
    Query,
    /// The form body (§3.5.2), after the parameters it already has. The request must have a
    /// form body (`application/x-www-form-urlencoded`), or no body and no `Content-Type`, which
    /// then becomes a form.
    FormBody,
}
