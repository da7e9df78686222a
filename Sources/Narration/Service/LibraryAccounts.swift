extension NarrationLibrary {
    /// Where the reading service's accounts, sessions and audit log are kept: this library's
    /// catalog. Front ends make an `AccountService` over it.
    public var accountStore: any AccountStore { catalog }
}
