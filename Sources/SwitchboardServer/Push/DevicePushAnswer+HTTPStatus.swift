extension DevicePushAnswer {
    /// A push a maker's service answered with an HTTP error and none of its own codes: tried
    /// again later for a rate limit (429) or a server error (5xx), else refused.
    static func httpStatus(_ status: Int, _ text: String) -> Self {
        status == 429 || status >= 500 ? .later(text) : .refused(text)
    }
}
