//! The causes grouped by what the pipeline does with them: which contradict each other, which
//! change the assembly, the base string URI, the collection.

use super::Cause;

/// Causes that contradict each other: a pair from one group is never tried.
pub(crate) const EXCLUSIVE: &[&[Cause]] = &[
    &[Cause::QueryNotDecoded, Cause::PlusNotDecoded],
    &[Cause::DecodedTwice, Cause::QueryNotDecoded],
    &[Cause::DecodedTwice, Cause::PlusNotDecoded],
    &[Cause::DecodedTwice, Cause::QueryNamesNotDecoded],
    &[Cause::DecodedTwice, Cause::QueryUtf8EncodedTwice],
    &[Cause::DecodedTwice, Cause::QueryAsSentEncodedOnce],
    &[Cause::DecodedTwice, Cause::UnescapedQueryEncodedOnce],
    &[Cause::QueryNotDecoded, Cause::QueryNamesNotDecoded],
    &[Cause::QueryNotSigned, Cause::QueryInBaseUri],
    &[Cause::FormBodyNotSigned, Cause::NonFormBodySigned],
    &[
        Cause::SortedBeforeEncoding,
        Cause::SortedAsStrings,
        Cause::NotSorted,
        Cause::SortedByNameOnly,
    ],
    &[Cause::DuplicatesCollapsed, Cause::FirstDuplicateKept],
    &[
        Cause::ParametersNotEncoded,
        Cause::ParametersEncodedTwice,
        Cause::NamesNotEncoded,
    ],
    &[Cause::DefaultPortKept, Cause::PortDropped],
    &[
        Cause::KeyMissingAmpersand,
        Cause::KeyTokenSecretMissing,
        Cause::KeySecretsSwapped,
    ],
    &[Cause::SignatureHex, Cause::SignatureBase64Url],
    &[Cause::ReservedUnencoded, Cause::SlashUnencoded],
    &[Cause::QueryAsSentEncodedOnce, Cause::QueryNotDecoded],
    &[Cause::QueryAsSentEncodedOnce, Cause::PlusNotDecoded],
    &[Cause::QueryAsSentEncodedOnce, Cause::QueryNamesNotDecoded],
    &[
        Cause::QueryAsSentEncodedOnce,
        Cause::ParamStringNotReencoded,
    ],
    &[Cause::QueryAsSentEncodedOnce, Cause::SlashUnencoded],
    &[Cause::QueryUtf8EncodedTwice, Cause::QueryNotDecoded],
    &[Cause::QueryUtf8EncodedTwice, Cause::QueryAsSentEncodedOnce],
    &[Cause::NamesNotEncoded, Cause::QueryAsSentEncodedOnce],
    &[
        Cause::UnescapedQueryEncodedOnce,
        Cause::QueryAsSentEncodedOnce,
    ],
    &[Cause::UnescapedQueryEncodedOnce, Cause::QueryNotDecoded],
    &[Cause::UnescapedQueryEncodedOnce, Cause::PlusNotDecoded],
    &[
        Cause::UnescapedQueryEncodedOnce,
        Cause::QueryNamesNotDecoded,
    ],
    &[
        Cause::UnescapedQueryEncodedOnce,
        Cause::QueryUtf8EncodedTwice,
    ],
];

/// The causes that change how the parameter string and the base string are put together.
pub(super) const ASSEMBLY: &[Cause] = &[
    Cause::PlusForSpace,
    Cause::UnencodedSubDelims,
    Cause::TildeEncoded,
    Cause::LowercaseHex,
    Cause::ReservedUnencoded,
    Cause::SlashUnencoded,
    Cause::Latin1NotUtf8,
    Cause::NamesNotEncoded,
    Cause::SortedBeforeEncoding,
    Cause::SortedAsStrings,
    Cause::NotSorted,
    Cause::ParamStringNotReencoded,
    Cause::ProtocolValuesEncodedOnce,
    Cause::QueryAsSentEncodedOnce,
    Cause::UnescapedQueryEncodedOnce,
    Cause::MethodNotUppercased,
    Cause::ParsedAsPhp,
    Cause::ParametersNotEncoded,
    Cause::ParametersEncodedTwice,
    Cause::SortedByNameOnly,
];

pub(super) const URI: &[Cause] = &[
    Cause::DefaultPortKept,
    Cause::PortDropped,
    Cause::HostNotLowercased,
    Cause::TrailingSlashChanged,
    Cause::PathDecoded,
    Cause::SchemeChanged,
    Cause::QueryInBaseUri,
];

/// The causes that change which parameters are collected or what they hold: those that read
/// the sources otherwise, leave one out or add one, rename or drop them. Every other cause
/// acts on the base string URI, the assembly, the key or the digest, and shares the
/// reference's collection (a test holds each of them to it).
pub(super) const COLLECTION: &[Cause] = &[
    Cause::FormBodyHashed,
    Cause::CallbackNotSigned,
    Cause::VerifierNotSigned,
    Cause::BodyHashNotSigned,
    Cause::VersionMismatch,
    Cause::EmptyTokenIncluded,
    Cause::QueryNotSigned,
    Cause::QueryInBaseUri,
    Cause::FormBodyNotSigned,
    Cause::NonFormBodySigned,
    Cause::QueryNotDecoded,
    Cause::PlusNotDecoded,
    Cause::DecodedTwice,
    Cause::ValueCutAtEquals,
    Cause::QueryNamesNotDecoded,
    Cause::QueryUtf8EncodedTwice,
    Cause::QueryAsSentEncodedOnce,
    Cause::ParameterNotSigned,
    Cause::QueryStartNotSigned,
    Cause::RealmSigned,
    Cause::EmptyValueDropped,
    Cause::RepeatedNamesIndexed,
    Cause::ArrayBracketsDropped,
    Cause::DuplicatesCollapsed,
    Cause::FirstDuplicateKept,
];

/// The collection causes that only reshape what the reference collects (leave one out, add
/// the realm, drop empty values, rename, collapse duplicates: [`Context::reshaped`]), without
/// reading the sources otherwise: their readings reshape the reference's collection instead
/// of collecting anew (a test holds each of them, and each with a parameter left out, to
/// collecting anew).
///
/// [`Context::reshaped`]: super::Context
pub(super) const RESHAPING: &[Cause] = &[
    Cause::ParameterNotSigned,
    Cause::QueryStartNotSigned,
    Cause::RealmSigned,
    Cause::EmptyValueDropped,
    Cause::RepeatedNamesIndexed,
    Cause::ArrayBracketsDropped,
    Cause::DuplicatesCollapsed,
    Cause::FirstDuplicateKept,
];
