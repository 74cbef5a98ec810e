/// The styles of correcting entries: lists whose every entry has Change and Delete buttons,
/// the edit forms' choices, and the confirmation with its Undo button.
enum EditAssets {
    static let css = """
        .entries{list-style:none;padding:0;margin:0 0 .5rem}
        .entries>li{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.5rem 0;border-bottom:1px solid #d8d8d0}
        .entries .what{flex:1 1 14rem}
        .actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
        .actions form,.entries form{margin:0}
        .notice.undoable{display:flex;flex-wrap:wrap;gap:.6rem 1rem;align-items:center;justify-content:space-between}
        .notice.undoable p{margin:0}
        .notice.undoable form{margin:0}
        .notice.undoable button{min-width:7rem}
        .check label .hint{display:block;font-weight:400}
        .dose-time{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
        .dose-time .field{margin:0}
        .dose-time input[type=time]{width:9rem}
        .edit-delete{margin-top:1.5rem}
        .readings li.editable{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
        .note .actions{margin-top:.4rem}
        """
}
