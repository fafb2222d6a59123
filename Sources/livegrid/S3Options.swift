import ArgumentParser
import LibrarySources

/// The options of `s3://` libraries, shared by the commands that take a remote URL. Each one has an AWS
/// variable or profile key below it (`S3Settings.resolve`), so they are needed only to override those.
struct S3Options: ParsableArguments {
    @Option(help: ArgumentHelp("s3:// only: the S3-compatible endpoint (https://s3.REGION.backblazeb2.com, https://ACCOUNT.r2.cloudflarestorage.com).",
                               discussion: "Else AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL or the profile's endpoint_url; none means AWS itself."))
    var endpoint: String?

    @Option(help: "s3:// only: the region to sign for (else AWS_REGION, AWS_DEFAULT_REGION, the profile's region, us-east-1).")
    var region: String?

    @Option(help: "s3:// only: the profile of ~/.aws/credentials and ~/.aws/config to use (else AWS_PROFILE, then default).")
    var profile: String?

    @Flag(help: "s3:// only: send requests unsigned, for public buckets (no credentials are read).")
    var noSignRequest = false
}
